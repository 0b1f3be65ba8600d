import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../testing/certificates.js';
import { createTestDatabase, type TestDatabase } from '../testing/database.js';
import { runBookie } from '../testing/process.js';

/** `bookie wl add-certificate|revoke-certificate` and `bookie settlement quarantine` (docs/adr/0016). */
describe(`bookie certificates and quarantine (real process, ${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let dir: string;
  let pg: TestDatabase | undefined;
  let dbArgs: string[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookie-safety-'));
    pg = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : undefined;
    dbArgs = pg?.url ? ['--db-url', pg.url] : ['--data-dir', join(dir, 'data')];
    mkdirSync(join(dir, 'data'));
    selfSignedCertificate(dir, 'partner');
  });
  afterAll(async () => {
    await pg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const bookie = (...args: string[]) => runBookie([...args, ...dbArgs]);

  it('binds a client certificate to a white label once, and revokes it', async () => {
    const created = await bookie(
      'wl',
      'create',
      '--name',
      'Certified',
      '--currency',
      'EUR',
      '--insurance-cancel',
    );
    expect(created.code).toBe(0);
    const id = JSON.parse(created.stdout).id as string;
    expect(JSON.parse(created.stdout).white_label.insurance_cancel_callbacks).toBe(true);
    const added = await bookie('wl', 'add-certificate', id, '--cert', join(dir, 'partner.crt'));
    expect(added.stderr).toBe('');
    const cert = JSON.parse(added.stdout);
    expect(cert).toMatchObject({ white_label_id: id, subject: 'CN=partner', revoked_at: null });
    expect(cert.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect((await bookie('wl', 'add-certificate', id, '--cert', join(dir, 'partner.crt'))).code).toBe(1);
    const bad = await bookie('wl', 'add-certificate', id, '--cert', join(dir, 'partner.key'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('certificate');
    const colons = cert.fingerprint.toUpperCase().match(/../g).join(':');
    const revoked = await bookie('wl', 'revoke-certificate', id, colons);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout).revoked_at).toEqual(expect.any(String));
  }, 180_000);

  it('lists the settlement quarantine and names what it cannot find', async () => {
    const list = await bookie('settlement', 'quarantine', 'list');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual({ items: [] });
    const retry = await bookie('settlement', 'quarantine', 'retry', '42', '--reason', 'try again');
    expect(retry.code).toBe(2);
    expect(retry.stderr).toContain('no quarantined entry 42');
    const bad = await bookie('settlement', 'quarantine', 'skip', 'x', '--reason', 'r');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('v:');
    expect((await bookie('settlement', 'quarantine', 'skip', '42')).code).toBe(2); // --reason is required
  }, 180_000);
});
