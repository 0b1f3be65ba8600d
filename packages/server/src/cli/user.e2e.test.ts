import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/database.js';
import { runBookie } from '../testing/process.js';

describe(`bookie user (real process, ${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let dir: string;
  let pg: TestDatabase | undefined;
  let dbArgs: string[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookie-user-'));
    pg = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : undefined;
    dbArgs = pg?.url ? ['--db-url', pg.url] : ['--data-dir', dir];
  });
  afterAll(async () => {
    await pg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const bookie = (...args: string[]) => runBookie([...args, ...dbArgs]);

  it('creates the first operator with a generated password, refuses bad input, resets the password', async () => {
    const created = await bookie('user', 'create', '--email', 'Ops@Example.com', '--role', 'operator');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const c = JSON.parse(created.stdout);
    expect(c.user).toMatchObject({ email: 'ops@example.com', role: 'operator', white_label_id: null });
    expect(c.password).toMatch(/^[A-Za-z0-9_-]{16}$/);

    const bad = await bookie('user', 'create', '--email', 'p@example.com', '--role', 'partner_admin');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('white_label');
    const unknownWl = await bookie(
      'user',
      'create',
      '--email',
      'p@example.com',
      '--role',
      'partner_admin',
      '--white-label',
      'wl_x',
    );
    expect(unknownWl.code).toBe(2);
    expect(unknownWl.stderr).toContain('no white label wl_x');

    const reset = await bookie(
      'user',
      'reset-password',
      '--email',
      'ops@example.com',
      '--password',
      'a new long passphrase',
    );
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout)).toMatchObject({ user: { email: 'ops@example.com' }, sessions_ended: 0 });
    expect(JSON.parse(reset.stdout).password).toBeUndefined();
    const nobody = await bookie('user', 'reset-password', '--email', 'nobody@example.com');
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain('no user nobody@example.com');
  }, 180_000);
});
