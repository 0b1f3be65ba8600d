import { describe, expect, it } from 'vitest';
import type { TestApp } from '../app/test-app.js';
import { sampleEvent } from '../modules/trading/fixtures.js';
import { TEST_ADMIN_TOKEN } from '../testing/partner.js';
import { useHostileWorld } from './hostile-input.testing.js';

/**
 * Hostile decimals (docs/adr/0016-safety-and-conformance.md): every route reads decimals by one rule; leading
 * zeros, exponents, signs, long scales and odds not above 1 answer 400 naming the field and write nothing.
 */
describe(`hostile input (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let partner: string;
  let player: string;

  const { namedField, rowCounts } = useHostileWorld((started) => {
    ({ t, partner, player } = started);
  });

  it('reads decimals by one rule on every route: leading zeros, exponents, signs, long scales and odds not above 1 answer 400 naming the field, nothing written', async () => {
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const created = await t.app.inject({
      method: 'POST',
      url: '/trading/sport-events',
      headers: admin,
      payload: JSON.stringify(sampleEvent()),
    });
    expect(created.statusCode, created.body).toBe(201);
    const ev = created.json().id as string;
    const before = await rowCounts();
    const money = ['007.5', '01', '1e2', '-1', '+1', '1.', ' 1', '1.1234567', '0x10'];
    const odds = ['01.5', '1e1', '-2', '1', '1.0', '1.000000', '0.5', '2.1234567890123'];
    const sel = (value: string) => ({ sport_event_id: ev, market_id: '1', odd_id: '1', value });
    const reported = (stake: string, value: string, bet: string) => ({
      bet_id: bet,
      player_id: 'p1',
      type: { code: 0, system_sizes: [1] },
      stake: { value: stake, currency_code: 'EUR' },
      selections: [sel(value)],
      created_at: '2030-06-01T12:00:00Z',
    });
    const cases: Array<{
      what: string;
      method: 'POST' | 'GET' | 'PUT';
      url: string;
      auth: string;
      body?: unknown;
      field: string;
    }> = [];
    for (const m of money) {
      cases.push(
        {
          what: `placement stake ${m}`,
          method: 'POST',
          url: '/frame-api/bets',
          auth: player,
          body: {
            bet_type: 'single',
            stake: m,
            currency: 'EUR',
            odds_strategy: 3,
            selections: [{ sport_event_id: ev, market_id: '1', odd_id: '1', odds: '1.5' }],
          },
          field: 'stake',
        },
        {
          what: `MTS stake ${m}`,
          method: 'POST',
          url: '/bets',
          auth: partner,
          body: reported(m, '1.5', 'b1'),
          field: 'stake.value',
        },
        {
          what: `advisory stake ${m}`,
          method: 'POST',
          url: '/bets/advisory',
          auth: partner,
          body: reported(m, '1.5', 'a1'),
          field: 'stake.value',
        },
        {
          what: `restrictions stake ${m}`,
          method: 'GET',
          url: `/restrictions?player_id=p1&type_code=0&currency_code=EUR&stake=${encodeURIComponent(m)}&selection=${ev}/1/1/1.5`,
          auth: partner,
          field: 'stake',
        },
        {
          what: `freebet amount ${m}`,
          method: 'POST',
          url: '/freebet/create',
          auth: partner,
          body: { player_id: 'p1', currency_code: 'EUR', amount: m, conditions: [{}] },
          field: 'amount',
        },
      );
    }
    for (const o of odds) {
      cases.push(
        {
          what: `placement odds ${o}`,
          method: 'POST',
          url: '/frame-api/bets',
          auth: player,
          body: {
            bet_type: 'single',
            stake: '10',
            currency: 'EUR',
            odds_strategy: 3,
            selections: [{ sport_event_id: ev, market_id: '1', odd_id: '1', odds: o }],
          },
          field: 'selections[0].odds',
        },
        {
          what: `MTS odds ${o}`,
          method: 'POST',
          url: '/bets',
          auth: partner,
          body: reported('10', o, 'b2'),
          field: 'selections[0].value',
        },
        {
          what: `advisory odds ${o}`,
          method: 'POST',
          url: '/bets/advisory',
          auth: partner,
          body: reported('10', o, 'a2'),
          field: 'selections[0].value',
        },
        {
          what: `advisory foreign odds ${o}`,
          method: 'POST',
          url: '/bets/advisory',
          auth: partner,
          body: { ...reported('10', '1.5', 'a3'), foreign_selections: [{ id: 'f1', value: o }] },
          field: 'foreign_selections[0].value',
        },
        {
          what: `restrictions odds ${o}`,
          method: 'GET',
          url: `/restrictions?player_id=p1&type_code=0&currency_code=EUR&selection=${ev}/1/1/${encodeURIComponent(o)}`,
          auth: partner,
          field: 'query.selection[0]',
        },
        {
          what: `trading odds ${o}`,
          method: 'PUT',
          url: `/trading/sport-events/${ev}/markets`,
          auth: TEST_ADMIN_TOKEN,
          body: { markets: [{ id: '7', type_id: 1, odds: [{ id: '1', value: o }] }] },
          field: 'markets[0].odds',
        },
      );
    }
    for (const c of cases) {
      const res = await t.app.inject({
        method: c.method,
        url: c.url,
        headers: {
          authorization: `Bearer ${c.auth}`,
          ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(c.body !== undefined ? { payload: JSON.stringify(c.body) } : {}),
      });
      expect(res.statusCode, `${c.what}: ${res.body}`).toBe(400);
      expect(namedField(res.json()), `${c.what}: ${res.body}`).toContain(c.field);
    }
    expect(await rowCounts()).toEqual(before);
  });
});
