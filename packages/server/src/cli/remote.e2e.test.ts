import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../testing/certificates.js';
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

  it('changes state through the running server with --url: certificates, users, risk, settlement', async () => {
    const remote = ['--url', server.url];
    const wl = JSON.parse(
      (
        await runBookie(
          ['wl', 'create', '--name', 'Certs', '--currency', 'EUR', '--allow', '127.0.0.1', ...remote],
          { env },
        )
      ).stdout,
    ) as { id: string };
    selfSignedCertificate(dir, 'partner');
    const added = await runBookie(
      ['wl', 'add-certificate', wl.id, '--cert', join(dir, 'partner.crt'), ...remote],
      {
        env,
      },
    );
    expect(added.code, added.stderr).toBe(0);
    const cert = JSON.parse(added.stdout) as {
      fingerprint: string;
      subject: string;
      revoked_at: string | null;
    };
    expect(cert).toMatchObject({ fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), revoked_at: null });
    expect(cert.subject).toContain('partner');
    const again = await runBookie(
      ['wl', 'add-certificate', wl.id, '--cert', join(dir, 'partner.crt'), ...remote],
      {
        env,
      },
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('409');
    const revoked = await runBookie(['wl', 'revoke-certificate', wl.id, cert.fingerprint, ...remote], {
      env,
    });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout).revoked_at).toEqual(expect.any(String));

    const user = await runBookie(
      ['user', 'create', '--email', 'ops@bookie.test', '--role', 'operator', ...remote],
      { env },
    );
    expect(user.code, user.stderr).toBe(0);
    expect(JSON.parse(user.stdout)).toMatchObject({
      user: { email: 'ops@bookie.test' },
      password: expect.any(String),
    });

    const reset = await runBookie(['user', 'reset-password', '--email', 'ops@bookie.test', ...remote], {
      env,
    });
    expect(reset.code, reset.stderr).toBe(0);
    const resetAnswer = JSON.parse(reset.stdout);
    expect(resetAnswer).toMatchObject({ user: { email: 'ops@bookie.test' }, sessions_ended: 0 });
    expect(resetAnswer.password).toEqual(expect.any(String));
    expect(resetAnswer.password).not.toBe(JSON.parse(user.stdout).password);
    const nobody = await runBookie(['user', 'reset-password', '--email', 'nobody@bookie.test', ...remote], {
      env,
    });
    expect(nobody.code).not.toBe(0);
    expect(nobody.stderr).toContain('nobody@bookie.test');

    const group = await runBookie(['risk', 'group', 'vip', '--stake-factor', '2', ...remote], { env });
    expect(group.code, group.stderr).toBe(0);
    const setPlayer = await runBookie(
      ['risk', 'player', 'p-remote', '--white-label', wl.id, '--group', 'vip', ...remote],
      { env },
    );
    expect(setPlayer.code, setPlayer.stderr).toBe(0);
    const readPlayer = await runBookie(['risk', 'player', 'p-remote', '--white-label', wl.id, ...remote], {
      env,
    });
    expect(readPlayer.code, readPlayer.stderr).toBe(0);
    expect(JSON.parse(readPlayer.stdout)).toMatchObject({ player_id: 'p-remote', group: 'vip' });
    const limit = await runBookie(
      ['risk', 'limit', '--white-label', wl.id, '--phase', 'prematch', '--liability', '5000', ...remote],
      { env },
    );
    expect(limit.code, limit.stderr).toBe(0);
    const show = await runBookie(['risk', 'show', ...remote], { env });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('"vip"');
    expect(show.stdout).toContain(wl.id);
    const recompute = await runBookie(['risk', 'recompute', ...remote], { env });
    expect(recompute.code, recompute.stderr).toBe(0);

    // the running server migrated its database when it started: nothing is pending
    const migrate = await runBookie(['migrate', ...remote], { env });
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(JSON.parse(migrate.stdout)).toEqual({ applied: [] });

    const quarantine = await runBookie(['settlement', 'quarantine', 'list', ...remote], { env });
    expect(quarantine.code, quarantine.stderr).toBe(0);
    expect(JSON.parse(quarantine.stdout)).toEqual({ items: [] });
    const skip = await runBookie(
      ['settlement', 'quarantine', 'skip', '999999', '--reason', 'test', ...remote],
      { env },
    );
    expect(skip.code).toBe(2);
    expect(skip.stderr).toContain('404');
  });

  it('refuses a data directory that does not exist instead of creating an empty one', async () => {
    const missing = join(dir, 'no-such-dir');
    for (const [args, extra] of [
      [['callbacks', 'list', '--failing', '--data-dir', missing], {}],
      [['wl', 'list'], { BOOKIE_DATA_DIR: missing }],
    ] as const) {
      const r = await runBookie([...args], { env: { ...env, ...extra } });
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`no Bookie data directory at ${missing}`);
      expect(r.stdout).toBe('');
      expect(existsSync(missing)).toBe(false);
    }
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
