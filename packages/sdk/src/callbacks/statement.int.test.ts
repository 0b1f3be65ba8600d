import { createTestDatabase, type TestDatabase } from '@bookie/storage';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateSigningSecret } from '../signing.js';
import { callbackError, notEnoughBalance } from './errors.js';
import { placeBody, prepareCallback } from './fixtures.js';
import { createCallbackHandler } from './handler.js';
import { kyselyRunner } from './kysely-runner.js';
import { MemoryIdempotencyStore } from './memory-store.js';
import { SqlIdempotencyStore, type SqlRunner } from './sql-store.js';
import type { CallbackRequest, CallbackStatements } from './types.js';

const secret = generateSigningSecret();
const send = (p: { path: string; body: string; headers: Record<string, string> }): CallbackRequest => ({
  method: 'POST',
  path: p.path,
  headers: p.headers,
  body: Buffer.from(p.body),
});

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await sql`CREATE TABLE st_accounts (id text PRIMARY KEY, balance int8 NOT NULL)`.execute(db.db);
  await sql`CREATE TABLE st_fail (fail boolean NOT NULL)`.execute(db.db);
  await sql`INSERT INTO st_fail VALUES (false)`.execute(db.db);
});
afterAll(async () => {
  await db?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: the test's schema is untyped
type Tx = Transaction<any>;

/** kyselyRunner, counting what it runs: transactions and statements (a round trip each, BEGIN/COMMIT aside). */
function countingRunner(withStatement = true) {
  const inner = kyselyRunner(db.db);
  const counts = { transactions: 0, queries: 0, statements: 0 };
  const runner: SqlRunner<Tx> = {
    transaction: (fn) => {
      counts.transactions++;
      return inner.transaction(fn);
    },
    query: (tx, text, params) => {
      counts.queries++;
      return inner.query(tx, text, params);
    },
    ...(withStatement
      ? {
          statement: (text: string, params: readonly unknown[]) => {
            counts.statements++;
            return inner.statement!(text, params);
          },
        }
      : {}),
  };
  return { runner, counts };
}

/**
 * `/bet/place` as one statement on a toy account `bet_player_id`: debits the stake unless the balance is short
 * (a stored `not_enough_balance`) or the player is `p-later` (a transient refusal); the debit divides by zero while
 * `st_fail` is on (a statement that fails after its claim).
 */
const statements: CallbackStatements = {
  place: (body) => ({
    decide: `acct AS (SELECT balance FROM st_accounts WHERE id = $3 FOR UPDATE),
  decision AS (
    SELECT CASE WHEN $3 = 'p-later' THEN 'later' WHEN coalesce((SELECT balance FROM acct), 0) < $4::int8 THEN 'short'
      ELSE 'ok' END AS outcome, coalesce((SELECT balance FROM acct), 0) AS balance
  )`,
    claimWhen: `(SELECT outcome FROM decision) = 'ok'`,
    effects: `debit AS (
    UPDATE st_accounts SET balance = balance - $4::int8 / (CASE WHEN (SELECT fail FROM st_fail) THEN 0 ELSE 1 END)
    WHERE id = $3 AND EXISTS (SELECT 1 FROM claimed)
  )`,
    columns: `(SELECT outcome FROM decision) AS outcome, (SELECT balance FROM decision) AS balance`,
    params: [body.bet_player_id, BigInt(body.bet_stake.split('.')[0]!)],
    answer(row) {
      if (row.outcome === 'short') return notEnoughBalance(`${row.balance}.000000`);
      if (row.outcome === 'later')
        return callbackError('bet_unknown', { bet_id: body.bet_id }, { transient: true });
    },
  }),
};

async function setup(options: { withStatement?: boolean } = {}) {
  const { runner, counts } = countingRunner(options.withStatement ?? true);
  const store = new SqlIdempotencyStore(runner, { table: `st_${Math.random().toString(36).slice(2, 8)}` });
  await store.ensureSchema();
  counts.transactions = counts.queries = 0;
  const handler = createCallbackHandler({ secret, store, statements, handlers: {} });
  return { handler, store, counts };
}

let n = 0;
async function account(balance: number): Promise<string> {
  const id = `p-${++n}-${Math.random().toString(36).slice(2, 6)}`;
  await sql`INSERT INTO st_accounts VALUES (${id}, ${balance})`.execute(db.db);
  return id;
}
async function balance(id: string): Promise<string> {
  const r = await sql<{ b: string }>`SELECT balance::text AS b FROM st_accounts WHERE id = ${id}`.execute(
    db.db,
  );
  return r.rows[0]!.b;
}

describe('SQL store: a callback as one statement (docs/adr/0013-wallet-round-trips.md)', () => {
  beforeEach(async () => {
    await sql`UPDATE st_fail SET fail = false`.execute(db.db);
  });

  it('applies a first delivery in one statement, no transaction, and replays it in one', async () => {
    const { handler, store, counts } = await setup();
    const player = await account(100);
    const body = placeBody({ bet_player_id: player, bet_stake: '30.000000' });
    const p = prepareCallback('place', body, { secret });
    const first = await handler.handle(send(p));
    expect([first.status, first.body]).toEqual([204, '']);
    expect(counts).toEqual({ transactions: 0, queries: 0, statements: 1 });
    expect(await balance(player)).toBe('70');
    expect(await store.get(body.request_id)).toEqual({ status: 204, contentType: '', body: '' });
    counts.statements = 0;
    const again = await handler.handle(send(p));
    expect([again.status, again.body, again.headers['idempotent-replayed']]).toEqual([204, '', 'true']);
    expect(counts.statements).toBe(1);
    expect(await balance(player)).toBe('70');
  });

  it('stores a refusal (a second statement) and replays it byte-identical after the state changed', async () => {
    const { handler, counts } = await setup();
    const player = await account(5);
    const p = prepareCallback('place', placeBody({ bet_player_id: player, bet_stake: '30.000000' }), {
      secret,
    });
    const first = await handler.handle(send(p));
    expect(first.status).toBe(400);
    expect(first.body).toBe('{"error":{"code":"not_enough_balance","data":{"actual_balance":"5.000000"}}}');
    expect(counts.statements).toBe(2);
    await sql`UPDATE st_accounts SET balance = 1000 WHERE id = ${player}`.execute(db.db);
    const again = await handler.handle(send(p));
    expect([again.status, again.body, again.headers['content-type']]).toEqual([
      400,
      first.body,
      first.headers['content-type'],
    ]);
    expect(await balance(player)).toBe('1000');
  });

  it('answers 409 to the same request_id with another body, and changes nothing', async () => {
    const { handler } = await setup();
    const player = await account(100);
    const body = placeBody({ bet_player_id: player, bet_stake: '10.000000' });
    expect((await handler.handle(send(prepareCallback('place', body, { secret })))).status).toBe(204);
    const other = prepareCallback('place', { ...body, bet_stake: '20.000000' }, { secret });
    const res = await handler.handle(send(other));
    expect([res.status, JSON.parse(res.body).error.code]).toEqual([409, 'idempotency_conflict']);
    expect(await balance(player)).toBe('90');
  });

  it('answers a transient refusal without storing it', async () => {
    const { handler, store } = await setup();
    const body = placeBody({ bet_player_id: 'p-later', bet_stake: '1.000000' });
    const res = await handler.handle(send(prepareCallback('place', body, { secret })));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe('bet_unknown');
    expect(await store.get(body.request_id)).toBeUndefined();
  });

  it('releases the claim when the statement fails, so the retry applies it once', async () => {
    const { handler, store } = await setup();
    const player = await account(100);
    const body = placeBody({ bet_player_id: player, bet_stake: '10.000000' });
    const p = prepareCallback('place', body, { secret });
    await sql`UPDATE st_fail SET fail = true`.execute(db.db);
    expect((await handler.handle(send(p))).status).toBe(500);
    expect(await store.get(body.request_id)).toBeUndefined();
    expect(await balance(player)).toBe('100');
    await sql`UPDATE st_fail SET fail = false`.execute(db.db);
    expect((await handler.handle(send(p))).status).toBe(204);
    expect((await handler.handle(send(p))).status).toBe(204);
    expect(await balance(player)).toBe('90');
  });

  it('applies concurrent duplicates once and gives all the same answer', async () => {
    const { handler } = await setup();
    const player = await account(100);
    const p = prepareCallback('place', placeBody({ bet_player_id: player, bet_stake: '10.000000' }), {
      secret,
    });
    const answers = await Promise.all(Array.from({ length: 8 }, () => handler.handle(send(p))));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(204));
    expect(await balance(player)).toBe('90');
  });

  it('runs each statement in a transaction of its own when the runner has no `statement`', async () => {
    const { handler, counts } = await setup({ withStatement: false });
    const player = await account(100);
    const p = prepareCallback('place', placeBody({ bet_player_id: player, bet_stake: '10.000000' }), {
      secret,
    });
    expect((await handler.handle(send(p))).status).toBe(204);
    expect((await handler.handle(send(p))).status).toBe(204);
    expect(counts).toMatchObject({ transactions: 2, queries: 2, statements: 0 });
    expect(await balance(player)).toBe('90');
  });

  it('refuses statements with a store that cannot run them', () => {
    expect(() =>
      createCallbackHandler({ secret, store: new MemoryIdempotencyStore(), statements, handlers: {} }),
    ).toThrow(TypeError);
  });
});

describe('SQL store: the texts of claiming statements', () => {
  it('builds each distinct set of parts into its own text: statements sharing a decide part keep their own effects', async () => {
    const texts: string[] = [];
    const inner = kyselyRunner(db.db);
    const runner: SqlRunner<Tx> = {
      ...inner,
      statement: (text, params) => {
        texts.push(text);
        return inner.statement!(text, params);
      },
    };
    const store = new SqlIdempotencyStore(runner, { table: `st_${Math.random().toString(36).slice(2, 8)}` });
    await store.ensureSchema();
    const player = await account(100);
    const decide = `decision AS (SELECT 'ok' AS outcome)`;
    const by = (amount: number) => ({
      decide,
      claimWhen: `(SELECT outcome FROM decision) = 'ok'`,
      effects: `debit AS (UPDATE st_accounts SET balance = balance - ${amount} WHERE id = $3 AND EXISTS (SELECT 1 FROM claimed))`,
      columns: `(SELECT outcome FROM decision) AS outcome`,
      params: [player],
    });
    const noContent = () => ({ status: 204, contentType: '', body: '' });
    await store.executeStatement('r-1', 'f-1', by(10), noContent);
    await store.executeStatement('r-2', 'f-2', by(1), noContent);
    await store.executeStatement('r-3', 'f-3', by(10), noContent);
    expect(await balance(player)).toBe('79');
    expect(texts).toHaveLength(3);
    expect(texts[0]).toBe(texts[2]);
    expect(texts[1]).not.toBe(texts[0]);
    expect(texts[1]).toContain('balance - 1 WHERE');
  });
});
