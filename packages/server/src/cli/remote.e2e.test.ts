import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../testing/partner.js';
import { type BookieProcess, runBookie, startBookie } from '../testing/process.js';

/**
 * The embedded database is single-process: with `bookie start` running on a PGlite directory, a second `bookie`
 * on the same directory is refused with one line naming the server's PID, and the same command with `--url` works
 * through the server's admin API. Always PGlite (the lock is the embedded database's).
 */
// several bookie processes one after another per test: slow on a busy machine
describe('bookie on a data directory a running server holds (real processes)', { timeout: 180_000 }, () => {
  let dir: string;
  let server: BookieProcess;
  const env = { BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATABASE_URL: '' };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookie-remote-'));
    server = await startBookie(['--data-dir', dir], { env });
  });
  afterAll(async () => {
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second process on the directory with one line naming the PID and --url', async () => {
    for (const args of [
      ['wl', 'list'],
      ['report', 'reconcile', '--from', '2024-05-01'],
      ['callbacks', 'list'],
    ]) {
      const r = await runBookie([...args, '--data-dir', dir], { env });
      expect(r.code, r.stderr).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`in use by process ${server.child.pid}`);
      expect(lines[0]).toContain('--url');
    }
  });

  it('does the same through the running server with --url', async () => {
    const remote = ['--url', server.url];
    const created = await runBookie(
      ['wl', 'create', '--name', 'Acme', '--currency', 'EUR', '--allow', '127.0.0.1', ...remote],
      { env },
    );
    expect(created.code, created.stderr).toBe(0);
    const wl = JSON.parse(created.stdout);
    expect(wl).toMatchObject({ id: expect.any(String), client_secret: expect.stringMatching(/^bksec_/) });

    const list = await runBookie(['wl', 'list', ...remote], { env });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).white_labels.map((w: { id: string }) => w.id)).toEqual([wl.id]);

    const updated = await runBookie(['wl', 'update', wl.id, '--max-stake', '100', ...remote], { env });
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse(updated.stdout).limits.max_stake).toBe('100.000000');

    const report = await runBookie(['report', 'reconcile', '--from', '2024-05-01', ...remote], { env });
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout)).toHaveProperty('totals');

    const callbacks = await runBookie(['callbacks', 'list', ...remote], { env });
    expect(callbacks.code, callbacks.stderr).toBe(0);
    expect(JSON.parse(callbacks.stdout)).toEqual({ items: [] });

    const unknownBet = await runBookie(['bets', 'show', '00000000-0000-4000-8000-000000000000', ...remote], {
      env,
    });
    expect(unknownBet.code).toBe(2);
    expect(unknownBet.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknownBet.stderr).toContain('no bet');
  });

  it('--url without an admin token, a wrong token, or with --data-dir: one line, no stack', async () => {
    const noToken = await runBookie(['wl', 'list', '--url', server.url], { env: { BOOKIE_ADMIN_TOKEN: '' } });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr.trim()).toBe(
      'error: --admin-token: is required with --url (or set BOOKIE_ADMIN_TOKEN)',
    );
    const wrong = await runBookie(['wl', 'list', '--url', server.url, '--admin-token', 'x'.repeat(20)], {
      env,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toContain('401');
    const both = await runBookie(['wl', 'list', '--url', server.url, '--data-dir', dir], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('cannot be used with');
  });
});
