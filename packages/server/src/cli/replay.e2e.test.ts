import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryArgs } from '@bookie/process';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/database.js';
import { runBookie, watchOutput } from '../testing/process.js';

/** `bookie`: the compiled build when fresh, else the sources under tsx. */
const MAIN = entryArgs(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const SEASON = fileURLToPath(new URL('../data/E0_2324.csv', import.meta.resolve('@bookie/simulator/index')));
const dir = mkdtempSync(join(tmpdir(), 'bookie-replay-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first `n` matches of the shipped season (header + n lines). */
function firstMatches(n: number): string {
  const file = join(dir, `E0_first_${n}.csv`);
  writeFileSync(
    file,
    `${readFileSync(SEASON, 'utf8')
      .split('\n')
      .slice(0, n + 1)
      .join('\n')}\n`,
  );
  return file;
}

describe('bookie replay and bookie demo', () => {
  it('refuses bad options and missing files with exit 2, naming them', async () => {
    const [speed, bets, missing, port] = await Promise.all([
      runBookie(['replay', SEASON, '--speed', 'fast']),
      runBookie(['replay', SEASON, '--bets', '0']),
      runBookie(['replay', join(dir, 'nope.csv')]),
      runBookie(['demo', '--port', 'x']),
    ]);
    expect(speed.code).toBe(2);
    expect(speed.stderr).toContain('--speed');
    expect(bets.code).toBe(2);
    expect(bets.stderr).toContain('--bets');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.csv');
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port');
  }, 120_000);

  it(`replays a few matches (${process.env.DATABASE_URL ? 'postgres' : 'pglite'}): the report ends with the reconciliation ok, --bets-out one line per bet`, async () => {
    const out = join(dir, 'few.jsonl');
    // on Postgres (DATABASE_URL) Bookie gets a database of its own; else the embedded in-memory PGlite
    const db = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : undefined;
    const dbArgs = db?.url ? ['--db-url', db.url] : [];
    const r = await runBookie([
      'replay',
      firstMatches(20),
      '--bets',
      '150',
      '--seed',
      'cli',
      '--bets-out',
      out,
      ...dbArgs,
    ]);
    await db?.close();
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    expect(r.stdout).toContain('Fixtures: 20 matches');
    expect(r.stdout).toContain('Reconciliation: OK');
    expect(r.stdout).toMatch(/Bets: 150 placed/);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(150);
    const first = JSON.parse(lines[0]!);
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining([
        'bet_id',
        'bet_type',
        'system_sizes',
        'stake',
        'currency',
        'status',
        'settle_amount',
        'settle_type',
        'selections',
      ]),
    );
    expect(Object.keys(first.selections[0])).toEqual(
      expect.arrayContaining([
        'sport_event_id',
        'date',
        'home',
        'away',
        'market_type',
        'line',
        'outcome',
        'odds',
        'status',
      ]),
    );
  }, 300_000);

  it('bookie demo serves /healthz, prints where to look, replays, and stops cleanly on Ctrl-C', async () => {
    const child = spawn(
      process.execPath,
      [
        ...MAIN,
        'demo',
        firstMatches(6),
        '--port',
        '0',
        '--wallet-port',
        '0',
        '--site-port',
        '0',
        '--speed',
        'max',
        '--bets',
        '40',
      ],
      { env: { ...process.env, LOG_LEVEL: 'error' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = watchOutput(child);
    const { until, exited } = output;
    try {
      const url = (await until(/Bookie\s+(http:\/\/127\.0\.0\.1:\d+)/, 180_000))[1]!;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(output.text()).toContain(`${url}/docs`);
      expect(output.text()).toContain(`${url}/log`);
      expect(output.text()).toMatch(
        /Wallet balances\s+http:\/\/127\.0\.0\.1:\d+\/players\/bettor-001\/balance/,
      );
      expect(output.text()).toContain(`Backoffice           ${url}/backoffice/`);
      for (const role of ['operator', 'partner']) {
        const [, email, password] =
          new RegExp(`${role}\\s+(\\S+@\\S+)\\s+password (\\S+)`).exec(output.text()) ?? [];
        const login = await fetch(`${url}/backoffice/api/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        });
        expect(login.status, role).toBe(200);
        expect(((await login.json()) as { user: { role: string } }).user.role).toMatch(role);
      }
      // the partner's site embedding the betting frame, on another origin
      const site = (await until(/Bet yourself\s+(http:\/\/127\.0\.0\.1:\d+)\//, 10_000))[1]!;
      expect(site).not.toBe(url);
      const page = await (await fetch(`${site}/`)).text();
      expect(page).toContain(`"bookieUrl":"${url}"`);
      expect(page).toContain('/frame/bootstrap.js');
      expect((await fetch(`${url}/frame/bootstrap.js`)).status).toBe(200);
      await until(/Reconciliation: OK/, 180_000);
      await until(/keeps serving/, 10_000);
      expect(output.text()).toContain('Fixtures: 6 matches');
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 400_000);
});
