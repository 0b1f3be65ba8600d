import { calculateBuilder, formatOdds, rational } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOME_AND_OVER, homeAndOverMarkets } from '../bet-builder/bet-builder.testing.js';
import { builderEventOf } from '../bet-builder/index.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent } from '../trading/fixtures.js';

type Json = Record<string, unknown>;

/**
 * Freebet conditions on bet builders through real placement and settlement (D64): `bet_builder_odds_count`,
 * `bet_builder_inner_odds_count` and `odds_coefficient` on the combined odds accept and refuse as the contract says;
 * a freebet builder bet settles with the freebet credit.
 */
describe(`freebet conditions on bet builders (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let me: { whiteLabelId: string; session: string; token: string };
  let football: string;

  beforeAll(async () => {
    w = await settlementWorld({ env: { PLAYER_RATE_LIMIT: '0', PARTNER_RATE_LIMIT: '0' } });
    me = await w.newPlayer('fb-builder');
    const markets = homeAndOverMarkets();
    football = (await w.trading(createSportEvent(w.t.deps, { ...sampleEvent({ markets: 0 }), markets }))).id;
  });
  afterAll(async () => {
    await w?.close();
  });

  function offered(): string {
    const snapshot = w.t.deps.feed.catalog.getEvent(football);
    if (!snapshot) throw new Error('no event');
    const calc = calculateBuilder(builderEventOf(snapshot), HOME_AND_OVER, { margin: rational(1n, 10n) });
    if (!calc.ok || !calc.value.quote) throw new Error('not priced');
    return formatOdds(calc.value.quote.odds);
  }

  async function freebet(single: Json): Promise<string> {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/freebet/create',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        player_id: 'fb-builder',
        currency_code: 'EUR',
        amount: '10',
        conditions: [{ type: 'bet_details', data: { bet_details: [{ type: 'single', data: single }] } }],
      }),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  async function place(body: Json): Promise<Json> {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/frame-api/bets',
      headers: { authorization: `Bearer ${me.session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 3,
        ...body,
      }),
    });
    return res.json() as Json;
  }
  const builderBet = (freebetId: string) => ({
    selections: [],
    bet_builders: [{ sport_event_id: football, legs: HOME_AND_OVER, odds: offered() }],
    freebet_id: freebetId,
  });
  const plainBet = (freebetId: string) => ({
    selections: [{ sport_event_id: football, market_id: '1', odd_id: '1', odds: '2.1' }],
    freebet_id: freebetId,
  });
  const refusedBy = (bet: Json) =>
    (bet.restrictions as Array<{ type: string; context: Json }>).map((r) => [r.type, r.context.condition]);

  it('bet_builder_odds_count min 1: a builder is accepted, a plain single refused', async () => {
    const conditions = { bet_builder_odds_count: { min: 1 } };
    expect(await place(plainBet(await freebet(conditions)))).toMatchObject({ status: 2 });
    expect(refusedBy(await place(plainBet(await freebet(conditions))))).toEqual([
      ['freebet_not_applicable', 'bet_builder_odds_count'],
    ]);
    expect(await place(builderBet(await freebet(conditions)))).toMatchObject({ status: 1 });
  });

  it('bet_builder_odds_count max 0 refuses a builder; bet_builder_inner_odds_count bounds its legs and refuses a plain bet', async () => {
    expect(refusedBy(await place(builderBet(await freebet({ bet_builder_odds_count: { max: 0 } }))))).toEqual(
      [['freebet_not_applicable', 'bet_builder_odds_count']],
    );
    expect(
      refusedBy(await place(builderBet(await freebet({ bet_builder_inner_odds_count: { max: 1 } })))),
    ).toEqual([['freebet_not_applicable', 'bet_builder_inner_odds_count']]);
    expect(
      refusedBy(await place(plainBet(await freebet({ bet_builder_inner_odds_count: { min: 1 } })))),
    ).toEqual([['freebet_not_applicable', 'bet_builder_inner_odds_count']]);
    expect(
      await place(builderBet(await freebet({ bet_builder_inner_odds_count: { min: 2, max: 2 } }))),
    ).toMatchObject({ status: 1 });
  });

  it('odds_coefficient checks the combined odds, not the inner ones; the freebet builder settles with the credit', async () => {
    const odds = Number(offered());
    // both inner odds (2.10, 1.95) are below 3, the combined odds above
    expect(odds).toBeGreaterThan(3);
    expect(refusedBy(await place(builderBet(await freebet({ odds_coefficient: { max: '3' } }))))).toEqual([
      ['freebet_not_applicable', 'odds_coefficient'],
    ]);
    const bet = await place(builderBet(await freebet({ odds_coefficient: { min: '3' } })));
    expect(bet).toMatchObject({ status: 1 });
    await w.result(football, [
      { id: '1', odds: [{ id: '1', status: 1 }] },
      { id: '18', odds: [{ id: '12', status: 1 }] },
    ]);
    const [settle] = await w.settlementsFor(bet.id as string, 1);
    const credit = (Math.round(odds * 10 * 1e3) / 1e3 - 10).toFixed(6);
    expect(settle!.json).toMatchObject({ settle_type: 1, settle_amount: credit, bet_odds: [] });
  });
});
