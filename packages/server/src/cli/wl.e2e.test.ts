import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/database.js';
import { runBookie } from '../testing/process.js';

describe(`bookie wl (real process, ${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let dir: string;
  let pg: TestDatabase | undefined;
  let dbArgs: string[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookie-wl-'));
    pg = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : undefined;
    dbArgs = pg?.url ? ['--db-url', pg.url] : ['--data-dir', dir];
  });
  afterAll(async () => {
    await pg?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const wl = (...args: string[]) => runBookie(['wl', ...args, ...dbArgs]);

  it('creates, lists, shows, updates, adds and revokes credentials, rotates the secret', async () => {
    const created = await wl(
      'create',
      '--name',
      'Acme',
      '--callback-url',
      'http://127.0.0.1:9/cb',
      '--currency',
      'EUR',
      '--allow',
      '127.0.0.1',
      '--allow',
      '::1,10.0.0.0/8',
      '--allow-origin',
      'https://Casino.example',
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const c = JSON.parse(created.stdout);
    expect(c).toMatchObject({
      id: expect.any(String),
      client_id: expect.stringMatching(/^bkc_/),
      client_secret: expect.stringMatching(/^bksec_/),
      white_label: {
        name: 'Acme',
        allowlist: ['127.0.0.1', '::1', '10.0.0.0/8'],
        // the stored row as the insert returned it: kept at creation, not only echoed
        allowed_origins: ['https://casino.example'],
        currencies: ['EUR'],
      },
    });

    const updated = await wl(
      'update',
      c.id,
      '--max-stake',
      '100',
      '--bet-delay',
      '4',
      '--currency',
      'USD',
      '--no-signing',
      '--allow-origin',
      'https://Casino.example/,http://127.0.0.1:5173',
    );
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      allowed_origins: ['https://casino.example', 'http://127.0.0.1:5173'],
      limits: { max_stake: '100.000000' },
      bet_delay: 4,
      currencies: ['USD'],
      signing: { enabled: false },
    });

    const added = JSON.parse((await wl('add-credential', c.id)).stdout);
    expect(added.client_secret).toMatch(/^bksec_/);
    const revoked = await wl('revoke-credential', c.id, c.client_id);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout).revoked_at).toEqual(expect.any(String));

    const rotated = JSON.parse((await wl('rotate-secret', c.id, '--grace', '0')).stdout);
    expect(rotated).toEqual({
      signing_secret: expect.stringMatching(/^whsec_/),
      previous_secret_valid_until: null,
    });

    const shown = JSON.parse((await wl('show', c.id)).stdout);
    expect(shown.signing.secret).toBe(rotated.signing_secret);
    expect(shown.credentials.map((x: { client_id: string }) => x.client_id)).toEqual([
      c.client_id,
      added.client_id,
    ]);
    expect(JSON.stringify(shown)).not.toContain(c.client_secret);

    const list = JSON.parse((await wl('list')).stdout);
    expect(list.white_labels.map((w: { id: string }) => w.id)).toContain(c.id);
  }, 180_000); // seven processes, each opening the database

  it.each([
    [['create', '--name', 'X', '--currency', 'EUR', '--bogus'], "unknown option '--bogus'"],
    [['create', '--currency', 'EUR'], '--name'],
    [['create', '--name', 'X', '--currency', 'EUR', '--allow', '999.1.1.1'], 'error: --allow: '],
    [['create', '--name', 'X', '--currency', 'EUR', '--bet-delay', 'soon'], 'error: --bet-delay: '],
    [['create', '--name', 'X', '--currency', 'euro'], 'error: --currency: '],
    [['create', '--name', 'X', '--currency', 'EUR', '--callback-url', 'ftp://x'], 'error: --callback-url: '],
    [
      ['create', '--name', 'X', '--currency', 'EUR', '--min-stake', '5', '--max-stake', '1'],
      'error: --min-stake: ',
    ],
    [['create', '--name', 'X', '--currency', 'EUR', '--mode', 'full'], 'error: --mode: '],
    [
      ['create', '--name', 'X', '--currency', 'EUR', '--allow-origin', 'https://x.example/frame'],
      'error: --allow-origin: ',
    ],
    [['show', 'no-such-white-label'], 'not found'],
  ])('exits 2 naming the problem: %j', async (args, message) => {
    const r = await wl(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });
});
