import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { firstOddWon, type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';
import type { OddsShader } from './odds-shader.js';

/**
 * Odds shading (D39) through the real app: past RISK_SHADE_FROM of an outcome's limit its published odds fall, as
 * ordinary `match_update` entries of the feed; bets are validated against the shaded odds; when the bets settle the
 * base odds come back.
 */
describe(`odds shading (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let session: string;
  let wl: string;

  beforeAll(async () => {
    w = await settlementWorld({ env: { RISK_SHADE_FROM: '0.5', RISK_SHADE_MAX: '0.2' } });
    const p = await w.newPlayer('s1');
    session = p.session;
    wl = p.whiteLabelId;
  });
  afterAll(async () => {
    await w?.close();
  });

  const published = (e: string) => w.t.deps.feed.catalog.getEvent(e)?.markets['1']?.odds['2']?.value;
  const shader = () => w.t.deps.risk.shader as OddsShader;

  it('lowers the published odds past the threshold, validates bets against them, restores them as bets settle', async () => {
    const e = await w.newEvent(1);
    const limit = await w.t.app.inject({
      method: 'PUT',
      url: '/admin/risk/limits',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        white_label_id: wl,
        market_type_id: '*',
        phase: 'prematch',
        liability_eur: '100',
      }),
    });
    expect(limit.statusCode).toBe(200);
    const versionBefore = w.t.deps.feed.catalog.version as bigint;

    // 30 × 1.5 = 45 of exposure: below 50 %, nothing changes
    await w.place(session, {
      odds_strategy: 1,
      stake: '30',
      selections: [{ ...w.sel(e, '1', '2'), odds: '2.5' }],
    });
    await shader().idle();
    expect(published(e)).toBe('2.500000000000');

    // +30 → 90 of 100: 80 % of the way from 50 % to the limit → (2.5 − 1) × 0.2 × 0.8 = 0.24 off
    await w.place(session, {
      odds_strategy: 1,
      stake: '30',
      selections: [{ ...w.sel(e, '1', '2'), odds: '2.5' }],
    });
    await shader().idle();
    await expect.poll(() => published(e)).toBe('2.260000000000');
    expect((w.t.deps.feed.catalog.version as bigint) > versionBefore).toBe(true);
    const entries = await w.t.deps.database.db
      .selectFrom('feed_log')
      .select(['type', 'line'])
      .where('sport_event_id', '=', e)
      .orderBy('v')
      .execute();
    expect(entries.at(-1)?.type).toBe('match_update');
    expect(JSON.parse(entries.at(-1)?.line as string).changes).toMatchObject({
      'markets/1/odds/2/value': '2.260000000000',
    });

    // a bet at the old price is refused; at the shaded price it is accepted
    const stale = await w.t.app.inject({
      method: 'POST',
      url: '/frame-api/bets',
      headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        bet_type: 'single',
        stake: '1',
        currency: 'EUR',
        odds_strategy: 1,
        selections: [{ ...w.sel(e, '1', '2'), odds: '2.5' }],
      }),
    });
    expect(stale.json().restrictions.map((r: { type: string }) => r.type)).toEqual(['selection_value']);
    await w.place(session, {
      odds_strategy: 1,
      stake: '1',
      selections: [{ ...w.sel(e, '1', '2'), odds: '2.26' }],
    });

    // the bets settle (lost): exposure falls to 0 and the base odds are published again
    await w.result(e, [firstOddWon('1')]);
    await expect
      .poll(async () => {
        await shader().idle();
        return published(e);
      })
      .toBe('2.500000000000');
    const shaded = await w.t.deps.database.db
      .selectFrom('risk_shading')
      .selectAll()
      .where('sport_event_id', '=', e)
      .execute();
    expect(shaded).toEqual([]);

    // the history stays: every publication of lowered odds in the feed, and the lowest of them
    const lowered = (
      await w.t.deps.database.db
        .selectFrom('feed_log')
        .select('line')
        .where('sport_event_id', '=', e)
        .where('type', '=', 'match_update')
        .orderBy('v')
        .execute()
    )
      .map(
        (r) => (JSON.parse(r.line) as { changes: Record<string, unknown> }).changes['markets/1/odds/2/value'],
      )
      .filter((v): v is string => typeof v === 'string' && v !== '2.500000000000');
    expect(lowered.length).toBeGreaterThan(0);
    const history = await w.t.app.inject({
      method: 'GET',
      url: `/admin/risk/shading?sport_event_id=${e}`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(history.statusCode).toBe(200);
    expect(history.json().items).toEqual([
      {
        sport_event_id: e,
        market_id: '1',
        odd_id: '2',
        market_type_id: '1',
        base_odds: '2.500000000000',
        lowest_odds: [...lowered].sort()[0],
        publications: lowered.length,
      },
    ]);
  });
});
