import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { toBetView } from './bet-view.js';
import { insertBets, type NewBet, type NewSelection } from './bet-writes.repo.js';
import { loadBets } from './bets.repo.js';
import { placeBody } from './callback-bodies.js';

const selection = (n: number, over: Partial<NewSelection> = {}): NewSelection => ({
  sportEventId: `ev-${n}`,
  marketId: `m-${n}`,
  oddId: `o-${n}`,
  requestedOdds: '1.85',
  odds: '1.850000000000',
  oddUpdatedAt: new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 678)),
  matchStatus: 0,
  // keys in an order jsonb does not keep
  eventInfo: {
    tournament_id: 't-1',
    state: 'prematch',
    provider_id: 'p',
    sport_id: 's-1',
    market_type: '1',
    start_time: '2030-01-03T00:00:00Z',
    competitors: [
      { type: 1, id: 'c-1' },
      { type: 2, id: 'c-2' },
    ],
  },
  names: {
    market: 'Winner',
    event: 'A – B',
    outcome: 'A',
    templates: { outcome: '{$competitor1}' },
  } as never,
  ...over,
});

const bet = (over: Partial<NewBet> = {}): NewBet => ({
  id: randomUUID(),
  whiteLabelId: 'wl-writes',
  playerId: 'p-1',
  currency: 'EUR',
  betType: 'single',
  systemSizes: [],
  stake: '10.5',
  oddsStrategy: 3,
  totalOdds: '1.85',
  foreignParams: { zeta: 1, a: 'x', nested: { bb: [1.5, 'y'], a: null } },
  createdAt: new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 6)),
  baseOdds: '1.85',
  freebetId: null,
  insuranceId: null,
  boostId: null,
  sessionTokenHash: 'hash',
  clientKey: null,
  placementDeadline: new Date(Date.UTC(2030, 0, 2, 3, 5, 5, 6)),
  placeRequestId: randomUUID(),
  selections: [selection(1)],
  ...over,
});

/**
 * Placement answers a held bet and serialises its `/bet/place` from the bet `insertBets` returns, which reads back
 * only what the database keeps in its own form: that bet must be the bet as stored, column for column.
 */
describe(`the insert of placed bets (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function expectAsStored(bets: NewBet[]) {
    const inserted = await inTransaction(t.db, (tx) => insertBets(tx, bets));
    const loaded = await loadBets(
      t.db,
      bets.map((b) => b.id),
    );
    const byId = new Map(loaded.map((b) => [b.row.id, b]));
    expect(inserted.map((b) => b.row.id)).toEqual(bets.map((b) => b.id));
    for (const b of inserted) {
      const stored = byId.get(b.row.id);
      expect(b).toEqual(stored);
      // the same bytes where bytes are what is kept: the answer and the callbacks' bodies and params
      expect(JSON.stringify(toBetView(b))).toBe(JSON.stringify(toBetView(stored as typeof b)));
      expect(JSON.stringify(placeBody(b))).toBe(JSON.stringify(placeBody(stored as typeof b)));
      expect(JSON.stringify(b.row.foreign_params)).toBe(JSON.stringify(stored?.row.foreign_params));
      expect(JSON.stringify(b.selections.map((s) => [s.event_info, s.names]))).toBe(
        JSON.stringify(stored?.selections.map((s) => [s.event_info, s.names])),
      );
    }
  }

  it('returns a batch of bets without builders as loading them reads them', async () => {
    await expectAsStored([
      bet(),
      bet({
        betType: 'express',
        selections: [selection(1), selection(2, { requestedOdds: '2' }), selection(3)],
      }),
      bet({ playerId: 'p-2', stake: '1000000' }),
    ]);
  });

  it('returns each bet as loading it reads it: defaults, numerics at their scale, jsonb key order', async () => {
    const bets = [
      bet(),
      bet({
        betType: 'express',
        stake: '3',
        totalOdds: '3.4225',
        baseOdds: '3.4225',
        clientKey: 'k-1',
        freebetId: null,
        foreignParams: {},
        selections: [selection(2, { requestedOdds: '1.8', names: null }), selection(3, { odds: '1.85' })],
      }),
      bet({
        betType: 'system',
        systemSizes: [2],
        stake: '0.000001',
        placeRequestId: undefined,
        selections: [selection(4), selection(5), selection(6, { matchStatus: 1 })],
        builders: [
          {
            sportEventId: 'ev-7',
            requestedOdds: '3.1',
            odds: '3.1',
            probability: '0.3',
            refundProbability: '0',
            margin: '0.05',
            legs: [selection(7), selection(8, { oddId: 'o-8b' })],
          },
        ],
      }),
    ];
    await expectAsStored(bets);
  });
});
