import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';

/**
 * The insert trigger of `bet` (migrations 0032, 0035): a statement inserting bets adds the leg exposures of those it
 * inserts open (accepted, unsettled) to their outcomes, summed per outcome, and nothing for the others; a new
 * outcome's `max_amount` is its amount when positive, an existing one's the larger of its maximum and its new amount.
 */

type Leg = { odd: string; amount: string };
type NewBet = { state: string; legs: Leg[] };

const WL = 'wl-trigger';

async function insertBetsInOneStatement(t: TestDatabase, bets: readonly NewBet[]): Promise<string[]> {
  const ids = bets.map(() => randomUUID());
  await inTransaction(t.db, async (tx) => {
    for (const [n, b] of bets.entries()) {
      for (const [idx, l] of b.legs.entries()) {
        await sql`insert into bet_exposure
            (bet_id, idx, white_label_id, phase, sport_event_id, market_id, odd_id, market_type_id, amount, eur_rate)
          values (${ids[n]}::uuid, ${idx}, ${WL}, 'prematch', 'ev-trigger', '1', ${l.odd}, '1',
                  ${l.amount}::numeric, 1)`.execute(tx);
      }
    }
    await sql`insert into bet (id, white_label_id, player_id, currency, bet_type, system_sizes, stake, odds_strategy,
        base_odds, total_odds, state, restrictions, foreign_params, created_at, placement_deadline, decided_at, source,
        partner_bet_id)
      select v.id, ${WL}, 'p', 'EUR', 'single', '[]', 10, 1, 2, 2, v.state, '[]', '{}', now(), now(), now(), 'mts',
        v.id::text
      from unnest(${ids}::uuid[], ${bets.map((b) => b.state)}::text[]) as v(id, state)`.execute(tx);
  });
  return ids;
}

async function exposure(t: TestDatabase): Promise<Record<string, { amount: string; max: string }>> {
  const r = await sql<{ odd_id: string; amount: string; max_amount: string }>`
    select odd_id, amount::text as amount, max_amount::text as max_amount from risk_exposure
    where white_label_id = ${WL} order by odd_id`.execute(t.db);
  return Object.fromEntries(r.rows.map((x) => [x.odd_id, { amount: x.amount, max: x.max_amount }]));
}

describe('the insert trigger of bet', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('adds the open bets of one statement, summed per outcome, and nothing for the others', async () => {
    const [first] = await insertBetsInOneStatement(t, [
      { state: 'accepted', legs: [{ odd: '1', amount: '10.500000' }] },
      {
        state: 'accepted',
        legs: [
          { odd: '1', amount: '4.250000' },
          { odd: '2', amount: '3.000000' },
        ],
      },
      { state: 'unsettled', legs: [{ odd: '3', amount: '1.000000' }] },
      { state: 'declined', legs: [{ odd: '1', amount: '100.000000' }] },
      { state: 'hold_requested', legs: [{ odd: '4', amount: '100.000000' }] },
    ]);
    expect(await exposure(t)).toEqual({
      '1': { amount: '14.750000', max: '14.750000' },
      '2': { amount: '3.000000', max: '3.000000' },
      '3': { amount: '1.000000', max: '1.000000' },
    });

    // the first bet settles (the update's trigger takes its exposure back), then a second statement on the same
    // outcomes: amounts add up, the maximum only grows
    await sql`update bet set state = 'settled' where id = ${first}::uuid`.execute(t.db);
    await insertBetsInOneStatement(t, [
      { state: 'accepted', legs: [{ odd: '1', amount: '2.000000' }] },
      {
        state: 'accepted',
        legs: [
          { odd: '2', amount: '5.000000' },
          { odd: '3', amount: '2.000000' },
        ],
      },
    ]);
    expect(await exposure(t)).toEqual({
      '1': { amount: '6.250000', max: '14.750000' },
      '2': { amount: '8.000000', max: '8.000000' },
      '3': { amount: '3.000000', max: '3.000000' },
    });
  });

  it('does nothing for a statement with no open bet', async () => {
    const before = await exposure(t);
    await insertBetsInOneStatement(t, [
      { state: 'hold_requested', legs: [{ odd: '9', amount: '7.000000' }] },
      { state: 'declined', legs: [{ odd: '1', amount: '7.000000' }] },
    ]);
    expect(await exposure(t)).toEqual(before);
  });
});
