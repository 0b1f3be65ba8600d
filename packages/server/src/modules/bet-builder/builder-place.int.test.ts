import { compare, parseDecimal } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent } from '../trading/fixtures.js';
import { homeAndOverMarkets, HOME_AND_OVER as LEGS } from './bet-builder.testing.js';

/**
 * The calculator and placement agree: the odds and quote the frame's calculator offers place at exactly those odds,
 * with the white label's own builder margin once the operator sets it.
 */
describe(`a bet builder from the calculator to a placed bet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let me: { whiteLabelId: string; session: string; token: string };
  let event: string;

  const frame = (url: string, body: unknown) =>
    w.t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${me.session}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const calculate = async () =>
    (await frame('/frame-api/bet-builder/calculate', { sport_event_id: event, legs: LEGS })).json();
  const place = (odds: string, quote: string) =>
    frame('/frame-api/bets', {
      bet_type: 'single',
      stake: '10',
      currency: 'EUR',
      odds_strategy: 1,
      selections: [],
      bet_builders: [{ sport_event_id: event, legs: LEGS, odds, quote }],
    });

  beforeAll(async () => {
    // settings read on every price, so the operator's change shows at once
    w = await settlementWorld({ env: { RISK_SETTINGS_CACHE_MS: '0', PLAYER_RATE_LIMIT: '0' } });
    me = await w.newPlayer('builder-place');
    event = (
      await w.trading(
        createSportEvent(w.t.deps, {
          ...sampleEvent({ markets: 0 }),
          markets: homeAndOverMarkets(),
        }),
      )
    ).id;
  }, 180_000);
  afterAll(async () => {
    await w?.close();
  });

  it('places at the odds the calculator quoted, with the default margin and then the operator’s', async () => {
    const first = await calculate();
    expect(first.available).toBe(true);
    const placed = await place(first.odds, first.quote);
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json()).toMatchObject({ status: 1, total_odds: first.odds });

    const set = await w.t.app.inject({
      method: 'PUT',
      url: '/admin/risk/bet-builder-settings',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ white_label_id: me.whiteLabelId, margin: '0.02' }),
    });
    expect(set.statusCode).toBe(200);
    const cheaper = await calculate();
    const odds = (v: string) => parseDecimal(v, { field: 'odds' });
    expect(compare(odds(cheaper.odds), odds(first.odds))).toBe(1);
    const again = await place(cheaper.odds, cheaper.quote);
    expect(again.json()).toMatchObject({ status: 1, total_odds: cheaper.odds });
  });
});
