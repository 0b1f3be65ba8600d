import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../db/transaction.js';
import { enqueueCallbacks } from '../modules/callbacks/enqueue-callbacks.js';
import { createTestDatabase, type TestDatabase } from '../testing/database.js';
import { runBookie } from '../testing/process.js';

// The CLI opens the database itself: on PGlite that needs a data directory shared with the test.
describe('bookie callbacks (real process)', () => {
  let t: TestDatabase;
  let dbArgs: string[];
  let dir: string | undefined;
  beforeAll(async () => {
    if (process.env.DATABASE_URL) {
      t = await createTestDatabase();
      dbArgs = ['--db-url', t.url!];
    } else {
      const { mkdtempSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const { join } = await import('node:path');
      dir = mkdtempSync(join(tmpdir(), 'bookie-cli-'));
      const { openDatabase, migrateDirectory } = await import('@bookie/storage');
      const { MIGRATIONS_DIR } = await import('../db/migrate.js');
      const db = await openDatabase({ dataDir: dir });
      await migrateDirectory(db.db, MIGRATIONS_DIR);
      t = Object.assign(db, { url: undefined }) as unknown as TestDatabase;
      dbArgs = ['--data-dir', dir];
    }
    await inTransaction(t.db, (tx) =>
      enqueueCallbacks(tx, [
        {
          whiteLabelId: 'wl1',
          betId: 'b1',
          path: '/bet/accept',
          body: { bet_id: 'b1' },
          foreignParams: { k: 'v' },
        },
      ]),
    );
    await t.db
      .updateTable('callback_delivery')
      .set({ next_attempt_at: new Date(Date.now() + 3_600_000), last_error: 'HTTP 500' })
      .execute();
    // PGlite allows one process at a time on a data directory
    if (dir) await t.close();
  });
  afterAll(async () => {
    if (!dir) await t?.close();
  });

  it('lists, shows and retries deliveries', async () => {
    const list = await runBookie(['callbacks', 'list', '--failing', ...dbArgs]);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    const { items } = JSON.parse(list.stdout);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      bet_id: 'b1',
      path: '/bet/accept',
      status: 'pending',
      last_error: 'HTTP 500',
    });

    const show = await runBookie(['callbacks', 'show', items[0].request_id, ...dbArgs]);
    expect(show.code).toBe(0);
    const shown = JSON.parse(show.stdout);
    expect(JSON.parse(shown.body)).toEqual({ request_id: items[0].request_id, bet_id: 'b1' });
    expect(shown.foreign_params).toBe('{"k":"v"}');

    const retry = await runBookie(['callbacks', 'retry', items[0].id, ...dbArgs]);
    expect(retry.code).toBe(0);
    expect(new Date(JSON.parse(retry.stdout).next_attempt_at).getTime()).toBeLessThan(Date.now() + 60_000);
  });

  it('exits 2 naming a bad option or an unknown delivery', async () => {
    const bad = await runBookie(['callbacks', 'list', '--status', 'weird', ...dbArgs]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--status');
    const missing = await runBookie(['callbacks', 'show', '424242', ...dbArgs]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no callback delivery 424242');
  });
});
