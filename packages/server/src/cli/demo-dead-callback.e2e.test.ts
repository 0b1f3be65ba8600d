import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryArgs } from '@bookie/process';
import { afterAll, describe, expect, it } from 'vitest';
import { watchOutput } from '../testing/process.js';

/** `bookie`: the compiled build when fresh, else the sources under tsx. */
const MAIN = entryArgs(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const SEASON = fileURLToPath(new URL('../data/E0_2324.csv', import.meta.resolve('@bookie/simulator/index')));
const dir = mkdtempSync(join(tmpdir(), 'bookie-demo-dead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first `n` matches of the shipped season. */
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

async function json(res: Response, status: number): Promise<Record<string, unknown>> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Someone exploring the demo creates a white label whose callback server does not exist and bets through it: its
 * callbacks stay pending for ever. The demo's season still ends with its report (it waits only for its own white
 * label's callbacks) and Bookie keeps serving.
 */
describe('bookie demo next to a white label with a dead callback server', () => {
  it('finishes the season, prints its report and keeps serving', async () => {
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
        '--bets',
        '30',
      ],
      { env: { ...process.env, LOG_LEVEL: 'error', DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = watchOutput(child);
    const { until, exited } = output;
    try {
      const url = (await until(/Bookie\s+(http:\/\/127\.0\.0\.1:\d+)/, 180_000))[1]!;
      const token = (await until(/Operator token\s+(\S+)/, 1000))[1]!;
      const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      // a white label whose callback server is dead (nothing listens on port 1)
      const wl = await json(
        await fetch(`${url}/admin/white-labels`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({
            name: 'Explorer',
            currencies: ['EUR'],
            callback_url: 'http://127.0.0.1:1',
            allowlist: ['127.0.0.1'],
          }),
        }),
        201,
      );
      const wlId = (wl.white_label as { id: string }).id;
      const event = await json(
        await fetch(`${url}/trading/sport-events`, {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({
            fixture: {
              type: 1,
              sport_id: 'football',
              template: '{$competitor1} vs {$competitor2}',
              start_time: '2030-06-01T18:00:00Z',
              tournament: { id: 'tx', name: 'Explorers', master_id: 'm-tx' },
              competitors: {
                c1: {
                  id: 'x1',
                  meta: {},
                  name: 'A',
                  type: 2,
                  scores: {},
                  home_away: 1,
                  master_id: 'm-x1',
                  template_position: 1,
                },
                c2: {
                  id: 'x2',
                  meta: {},
                  name: 'B',
                  type: 2,
                  scores: {},
                  home_away: 2,
                  master_id: 'm-x2',
                  template_position: 2,
                },
              },
            },
            markets: [
              {
                id: '1',
                type_id: 1,
                template: '1x2',
                specifiers: {},
                odds: [
                  { id: '1', value: '2.5' },
                  { id: '2', value: '3.4' },
                  { id: '3', value: '2.8' },
                ],
              },
            ],
          }),
        }),
        201,
      );
      const oauth = await json(
        await fetch(`${url}/oauth/token`, {
          method: 'POST',
          headers: {
            authorization: `Basic ${Buffer.from(`${wl.client_id}:${wl.client_secret}`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials',
        }),
        200,
      );
      const session = await json(
        await fetch(`${url}/token/create`, {
          method: 'POST',
          headers: { authorization: `Bearer ${oauth.access_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            player_id: 'explorer-1',
            currency: 'EUR',
            locale: 'en',
            params: { currency: 'EUR' },
          }),
        }),
        200,
      );
      // the bet cannot reach the partner's wallet: whatever Bookie answers, it owes the partner a callback
      await fetch(`${url}/frame-api/bets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          bet_type: 'single',
          stake: '10',
          currency: 'EUR',
          odds_strategy: 1,
          selections: [{ sport_event_id: event.id, market_id: '1', odd_id: '1', odds: '2.5' }],
        }),
      });
      const pending = async () =>
        (
          (await json(
            await fetch(`${url}/admin/callbacks?status=pending&white_label_id=${wlId}`, { headers: admin }),
            200,
          )) as { items: unknown[] }
        ).items.length;
      const end = Date.now() + 60_000;
      while ((await pending()) === 0) {
        if (Date.now() > end) throw new Error('the dead white label has no pending callback');
        await new Promise((r) => setTimeout(r, 200));
      }
      // the season ends with its report, although the dead white label's callbacks are still pending
      await until(/Reconciliation: OK/, 300_000);
      await until(/keeps serving/, 10_000);
      expect(output.text()).not.toContain('callbacks still pending after the settle timeout');
      expect(await pending()).toBeGreaterThan(0);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 600_000);
});
