import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Executor, inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { insertBets, type NewBet, setAcceptedOdds } from './bet-writes.repo.js';

/** Updates of `bet_selection` this connection counted and has not reported yet, and how many were HOT. */
async function updateCounts(tx: Executor) {
  const r = await sql<{ updated: string; hot: string }>`select
      pg_stat_get_xact_tuples_updated('bet_selection'::regclass)::text as updated,
      pg_stat_get_xact_tuples_hot_updated('bet_selection'::regclass)::text as hot`.execute(tx);
  return { updated: Number(r.rows[0]?.updated), hot: Number(r.rows[0]?.hot) };
}

/** A single at 1.5, as the frame places it (requested odds = odds until the decision). */
function single(i: number): NewBet {
  const now = new Date();
  return {
    id: randomUUID(),
    whiteLabelId: 'wl',
    playerId: `p${i}`,
    currency: 'EUR',
    betType: 'single',
    systemSizes: [],
    stake: '1',
    oddsStrategy: 3,
    totalOdds: '1.5',
    foreignParams: {},
    createdAt: now,
    baseOdds: '1.5',
    freebetId: null,
    insuranceId: null,
    boostId: null,
    sessionTokenHash: null,
    clientKey: null,
    placementDeadline: new Date(now.getTime() + 30_000),
    selections: [
      {
        sportEventId: 'sr:match:1',
        marketId: String(1 + (i % 4)),
        oddId: String(1 + (i % 3)),
        requestedOdds: '1.500000000000',
        odds: '1.500000000000',
        oddUpdatedAt: now,
        matchStatus: 0,
        eventInfo: { home: 'Home team', away: 'Away team', tournament: 'A tournament', pad: 'x'.repeat(200) },
        names: null,
      },
    ],
  };
}

describe(`the accepted odds' row versions (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("writes the odds that moved at the decision beside the batch's selections on their page (HOT)", async () => {
    // a placement batch's bets, held: their selections fill pages as one insert does
    const held = await inTransaction(t.db, (tx) =>
      insertBets(
        tx,
        Array.from({ length: 64 }, (_, i) => single(i)),
      ),
    );
    // the decision: two of three selections were accepted at the feed's price, not the one asked for
    const moved = held.flatMap((b, i) =>
      i % 3 === 0
        ? []
        : b.selections.map((s) => ({
            selection: s,
            odds: i % 3 === 1 ? '2.500000000000' : '3.500000000000',
          })),
    );
    const counts = await inTransaction(t.db, async (tx) => {
      const before = await updateCounts(tx);
      await setAcceptedOdds(tx, moved);
      const after = await updateCounts(tx);
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(counts.updated).toBe(moved.length);
    // the page keeps room for them (fillfactor): every new version stays beside its row
    expect(counts.hot).toBe(moved.length);
  });
});
