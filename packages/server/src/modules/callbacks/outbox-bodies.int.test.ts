import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { insertDeliveries, type NewCallbackDelivery, recordSyncDeliveries } from './callbacks.repo.js';

/** Bodies whose bytes the outbox must keep as given: JSON objects of every kind of text, and texts that are not. */
const BODIES = [
  '{"request_id":"r","bet_id":"b","bet_stake":"10.000000","bet_odds":[{"odd_ratio":"1.850000"}],"competitors":[]}',
  '{"name":"Équipe \\"A\\" vs. B — 東京 🏟","path":"C:\\\\users\\\\x","tab":"\\t","nl":"\\n"}',
  '{"sep":"\u2028\u2029","nul":"\\u0000","ctl":"\\u001f"}',
  '{"lone":"\\ud800","pair":"\\ud83d\\ude00"}',
  '{"nested":{"a":[1,2.5,-3e10,true,false,null,{"b":{}}]},"empty":"","spaces":"  "}',
  '{ "spaced" : 1 , "kept" : [ 1 , 2 ] }',
  '{"a":1,"a":2}',
  '{}',
  '"a JSON string"',
  '[1,2]',
  'not JSON at all: {"x"',
  '{"trailing":"space"} ',
  '',
];

const rowsOf = (betId: string): NewCallbackDelivery[] =>
  BODIES.map((body) => ({
    requestId: randomUUID(),
    whiteLabelId: 'wl',
    betId,
    path: '/bet/accept',
    body,
    foreignParams: '{"k":"v"}',
  }));

describe(`the outbox keeps each body's bytes (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterEach(async () => {
    await t.db.deleteFrom('callback_delivery').execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  const stored = async (betId: string) =>
    (
      await t.db
        .selectFrom('callback_delivery')
        .select(['request_id', 'body', 'foreign_params'])
        .where('bet_id', '=', betId)
        .orderBy('id')
        .execute()
    ).map((r) => ({ requestId: r.request_id, body: r.body, foreignParams: r.foreign_params }));

  it('writes the bodies of enqueued callbacks as given, in order', async () => {
    const rows = rowsOf('E');
    const ids = await inTransaction(t.db, (tx) => insertDeliveries(tx, rows));
    expect(ids).toHaveLength(BODIES.length);
    expect(await stored('E')).toEqual(
      rows.map((r) => ({ requestId: r.requestId, body: r.body, foreignParams: r.foreignParams })),
    );
  });

  it('writes the bodies of synchronous deliveries as given, in order', async () => {
    const rows = rowsOf('S');
    await inTransaction(t.db, (tx) =>
      recordSyncDeliveries(
        tx,
        rows.map((r) => ({
          ...r,
          delivered: true,
          attempts: 1,
          status: 200,
          error: null,
          createdAt: new Date(),
        })),
      ),
    );
    expect(await stored('S')).toEqual(
      rows.map((r) => ({ requestId: r.requestId, body: r.body, foreignParams: r.foreignParams })),
    );
  });
});
