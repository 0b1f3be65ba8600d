import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBookie } from '../testing/process.js';

// several bookie processes one after another per test: slow on a busy machine
describe('bookie usage (real processes)', { timeout: 180_000 }, () => {
  let busy: Server;
  let port: number;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    port = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => busy.close(() => r())));

  it('exits 2 on an unknown option of any subcommand', async () => {
    for (const args of [
      ['callbacks', 'list', '--bogus'],
      ['wl', 'list', '--bogus'],
      ['bets', 'show', 'x', '--bogus'],
      ['report', 'reconcile', '--from', '2024-05-01', '--bogus'],
      ['migrate', '--bogus'],
      ['calc', '--bogus'],
      ['openapi', '--bogus'],
    ]) {
      const r = await runBookie(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("unknown option '--bogus'");
    }
  });

  it('refuses a port in use with one line naming the port and the fix', async () => {
    const r = await runBookie(['start', '--data-dir', 'memory', '--port', String(port)], {
      env: { LOG_LEVEL: 'silent', DATABASE_URL: '' },
    });
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`port ${port}`);
    expect(lines[0]).toContain('--port');
  });

  it('start --help names BOOKIE_ADMIN_TOKEN and its 16-character minimum', async () => {
    const r = await runBookie(['start', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/BOOKIE_ADMIN_TOKEN[^\n]*\n?[^\n]*16 characters/);
  });

  it('bets --help says what the status numbers mean', async () => {
    const r = await runBookie(['bets', '--help']);
    expect(r.stdout).toContain('11 force-declined');
    expect(r.stdout).toContain('6 refunded manually');
    // a selection's status is its odd status: a void market is 5, never 3 (a half win)
    expect(r.stdout).toContain(
      '0 not resulted, 1 win, 2 loss, 3 half win, 4 half loss, 5 refunded, 6 cancelled, 7 refunded manually',
    );
    expect(r.stdout).not.toMatch(/\b3 refund/);
  });

  it('wl create without --allow warns that every partner call will be refused', async () => {
    const r = await runBookie(
      ['wl', 'create', '--name', 'Acme', '--currency', 'EUR', '--data-dir', 'memory'],
      {
        env: { DATABASE_URL: '' },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^warning: no --allow given: every partner call .* will be refused/);
    const withAllow = await runBookie(
      ['wl', 'create', '--name', 'Acme', '--currency', 'EUR', '--allow', '127.0.0.1', '--data-dir', 'memory'],
      { env: { DATABASE_URL: '' } },
    );
    expect(withAllow.stderr).toBe('');
  });
});
