import {
  type ClaimingStatement,
  type IdempotencyOutcome,
  SqlIdempotencyStore,
  type StoredAnswer,
} from '@bookie/sdk';
import { kyselyRunner } from '@bookie/sdk/callbacks/kysely-runner';
import { createTestDatabase, type TestDatabase } from '@bookie/storage';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deposit } from '../ledger/deposit.js';
import { checkLedger } from '../ledger/invariant.js';
import { acceptStatement, placeStatement, playerBalances } from '../ledger/ledger.repo.js';
import { WALLET_MIGRATIONS_DIR } from './database.js';
import { groupedStatements } from './grouped-statements.js';
import type { WalletDB } from './schema.js';

let database: TestDatabase<WalletDB>;
let store: SqlIdempotencyStore<unknown>;
/** The size of each transaction the callbacks' statements ran in, in order. */
const flushes: number[] = [];

beforeAll(async () => {
  database = await createTestDatabase<WalletDB>({ migrationsDir: WALLET_MIGRATIONS_DIR });
  const runner = kyselyRunner(database.db);
  const single = database.statement ?? runner.statement;
  const batch = database.statements;
  if (!single || !batch) throw new Error('the database runs neither single nor grouped statements');
  store = new SqlIdempotencyStore(
    { ...runner, statement: groupedStatements({ single, batch, onFlush: (n) => flushes.push(n) }) },
    { table: 'callback_requests' },
  ) as SqlIdempotencyStore<unknown>;
  // a bet the database refuses to record: its place fails, as a statement breaking a rule would
  await sql
    .raw(`CREATE FUNCTION refuse_bet() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused bet %', NEW.bet_id; END $$`)
    .execute(database.db);
  await sql
    .raw(`CREATE TRIGGER refuse_bet BEFORE INSERT ON bets FOR EACH ROW
      WHEN (NEW.bet_id LIKE 'refused-%') EXECUTE FUNCTION refuse_bet()`)
    .execute(database.db);
});
afterAll(async () => {
  await database?.close();
});

const NO_CONTENT: StoredAnswer = { status: 204, contentType: '', body: '' };

/** The answer of a place: 204, or the refusal naming the balance when short (as the wallet's own answer, simplified). */
function placeAnswer(row: Record<string, unknown>): StoredAnswer {
  if (row.outcome !== 'short') return NO_CONTENT;
  return {
    status: 400,
    contentType: 'application/json',
    body: JSON.stringify({ code: 'not_enough_balance', available: String(row.available) }),
  };
}

function place(key: string, betId: string, player: string, stake: bigint): Promise<IdempotencyOutcome> {
  const statement: ClaimingStatement = placeStatement({
    betId,
    playerId: player,
    currency: 'EUR',
    stake,
    freebet: false,
  });
  return store.executeStatement(key, `fp-${key}`, statement, placeAnswer);
}

function accept(key: string, betId: string): Promise<IdempotencyOutcome> {
  return store.executeStatement(key, `fp-${key}`, acceptStatement(betId), () => NO_CONTENT);
}

async function balance(player: string) {
  const [b] = await playerBalances(database.db, player);
  return { available: b?.available, held: b?.held };
}

/** Runs `calls` started in one turn of the event loop (so they share a transaction), settled in order. */
async function together<T>(calls: (() => Promise<T>)[]): Promise<PromiseSettledResult<T>[]> {
  flushes.length = 0;
  return Promise.allSettled(calls.map((c) => c()));
}

describe("group commit of the callbacks' statements", () => {
  it('runs statements arriving together in one transaction; each sees the ones before it', async () => {
    await deposit(database.db, { playerId: 'p1', currency: 'EUR', amount: '100.000000' });
    const settled = await together([
      () => place('t1-a', 't1-bet-a', 'p1', 30_000_000n),
      () => place('t1-b', 't1-bet-b', 'p1', 30_000_000n),
      // the same request again: it finds the claim of the statement before it and replays its answer
      () => place('t1-a', 't1-bet-a', 'p1', 30_000_000n),
      // short after the two holds before it in the same transaction: 100 − 60 = 40 < 50
      () => place('t1-c', 't1-bet-c', 'p1', 50_000_000n),
      () => accept('t1-a-accept', 't1-bet-a'),
    ]);
    // one transaction for the five, then the refusal stored on its own
    expect(flushes).toEqual([5, 1]);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : s.reason))).toEqual([
      { kind: 'applied', answer: NO_CONTENT },
      { kind: 'applied', answer: NO_CONTENT },
      { kind: 'replayed', answer: NO_CONTENT },
      {
        kind: 'applied',
        answer: {
          status: 400,
          contentType: 'application/json',
          body: '{"code":"not_enough_balance","available":"40000000"}',
        },
      },
      // the accept of the bet held two statements before it
      { kind: 'applied', answer: NO_CONTENT },
    ]);
    expect(await balance('p1')).toEqual({ available: 40_000_000n, held: 30_000_000n });
  });

  it('a failing statement fails alone: the others of its transaction run again alone and commit', async () => {
    await deposit(database.db, { playerId: 'p2', currency: 'EUR', amount: '100.000000' });
    const settled = await together([
      () => place('t2-a', 't2-bet-a', 'p2', 10_000_000n),
      () => place('t2-refused', 'refused-t2', 'p2', 10_000_000n),
      () => place('t2-b', 't2-bet-b', 'p2', 10_000_000n),
      () => place('t2-a', 't2-bet-a', 'p2', 10_000_000n),
    ]);
    // the transaction of four rolled back; each ran again alone
    expect(flushes).toEqual([4, 1, 1, 1, 1]);
    const [a, refused, b, again] = settled;
    expect(a).toEqual({ status: 'fulfilled', value: { kind: 'applied', answer: NO_CONTENT } });
    expect(refused?.status).toBe('rejected');
    expect(String((refused as PromiseRejectedResult).reason)).toMatch(/refused bet refused-t2/);
    expect(b).toEqual({ status: 'fulfilled', value: { kind: 'applied', answer: NO_CONTENT } });
    expect(again).toEqual({ status: 'fulfilled', value: { kind: 'replayed', answer: NO_CONTENT } });
    // the two bets held once each, the refused one not at all (nothing of the rolled-back transaction is kept)
    expect(await balance('p2')).toEqual({ available: 80_000_000n, held: 20_000_000n });
    const claims = await database.db
      .selectFrom('callback_requests')
      .select('request_id')
      .where('request_id', 'in', ['t2-a', 't2-b', 't2-refused'])
      .orderBy('request_id')
      .execute();
    expect(claims.map((c) => c.request_id)).toEqual(['t2-a', 't2-b']);
  });

  it('a replay answers the stored answer byte for byte, grouped or alone', async () => {
    await deposit(database.db, { playerId: 'p3', currency: 'EUR', amount: '10.000000' });
    const first = await together([
      () => place('t3-held', 't3-bet-held', 'p3', 4_000_000n),
      () => place('t3-short', 't3-bet-short', 'p3', 20_000_000n),
    ]);
    const answers = first.map((s) => (s as PromiseFulfilledResult<IdempotencyOutcome>).value);
    expect(answers.map((o) => o.kind)).toEqual(['applied', 'applied']);
    const stored = answers.map((o) => (o.kind === 'conflict' ? undefined : o.answer));
    expect(stored[1]?.status).toBe(400);
    // replayed in one transaction with a new statement, then alone
    const grouped = await together([
      () => place('t3-short', 't3-bet-short', 'p3', 20_000_000n),
      () => place('t3-held', 't3-bet-held', 'p3', 4_000_000n),
      () => accept('t3-accept', 't3-bet-held'),
    ]);
    expect(flushes).toEqual([3]);
    expect(grouped.map((s) => (s as PromiseFulfilledResult<IdempotencyOutcome>).value)).toEqual([
      { kind: 'replayed', answer: stored[1] },
      { kind: 'replayed', answer: stored[0] },
      { kind: 'applied', answer: NO_CONTENT },
    ]);
    expect(await place('t3-short', 't3-bet-short', 'p3', 20_000_000n)).toEqual({
      kind: 'replayed',
      answer: stored[1],
    });
    // the same request id with another body is a conflict, as alone
    const conflicting = await store.executeStatement(
      't3-held',
      'another-fingerprint',
      placeStatement({
        betId: 't3-bet-held',
        playerId: 'p3',
        currency: 'EUR',
        stake: 4_000_000n,
        freebet: false,
      }),
      placeAnswer,
    );
    expect(conflicting).toEqual({ kind: 'conflict' });
    expect(await balance('p3')).toEqual({ available: 6_000_000n, held: 0n });
    const check = await checkLedger(database.db);
    expect(check.ok, JSON.stringify(check.accounts)).toBe(true);
  });
});
