import { randomUUID } from 'node:crypto';
import { isCallbackBody, type MarketInput } from '@bookie/contracts';
import { type BuilderLegRef, calculateBuilder, formatOdds, rational } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../testing/scripted-partner.js';
import { HOME_AND_OVER, homeAndOverMarkets, market } from '../bet-builder/bet-builder.testing.js';
import { builderEventOf } from '../bet-builder/index.js';
import { recomputeExposure } from '../risk/recompute-exposure.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent } from '../trading/fixtures.js';
import { setBetStop } from '../trading/set-bet-stop.js';

type Restriction = { type: string; context: Record<string, unknown> };
type Json = Record<string, unknown>;

/** A football event a builder can price: 1X2, totals 2.5 and 1.5, both teams to score. */
const builderMarkets = (): MarketInput[] => [
  ...homeAndOverMarkets(),
  market('181', 18, { total: '1.5' }, [
    ['12', '1.26'],
    ['13', '3.88'],
  ]),
  market('29', 29, {}, [
    ['74', '1.80'],
    ['76', '2.00'],
  ]),
];

/** Under 1.5 goals and both teams to score: no final score wins both. */
const CONTRADICTORY: BuilderLegRef[] = [
  { market_id: '181', odd_id: '13' },
  { market_id: '29', odd_id: '74' },
];

/**
 * A bet carries bet builders (docs/adr/0043-bet-builder-bets.md): placed through the frame API and reported through
 * MTS `POST /bets`, each builder is one selection at its combined odds, repriced by the one decision from the event's
 * odds with the white label's builder margin; its inner legs are validated like any selection, carry its exposure,
 * and callbacks carry it in `bet_bet_builder_odds`, never in `bet_odds`.
 */
describe(`bets with bet builders (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let me: { whiteLabelId: string; session: string; token: string };
  let football: string;
  let other: string;

  beforeAll(async () => {
    w = await settlementWorld({ env: { PLAYER_RATE_LIMIT: '0', PARTNER_RATE_LIMIT: '0' } });
    me = await w.newPlayer('builder-1');
    football = (
      await w.trading(
        createSportEvent(w.t.deps, { ...sampleEvent({ markets: 0 }), markets: builderMarkets() }),
      )
    ).id;
    other = await w.newEvent(1);
  });
  afterAll(async () => {
    await w?.close();
  });

  /** The combined odds the builder calculator offers now (margin 0.1), 6 decimals. */
  function offered(event: string, legs: BuilderLegRef[]): string {
    const snapshot = w.t.deps.feed.catalog.getEvent(event);
    if (!snapshot) throw new Error('no event');
    const calc = calculateBuilder(builderEventOf(snapshot), legs, { margin: rational(1n, 10n) });
    if (!calc.ok || !calc.value.quote) throw new Error(`not priced: ${JSON.stringify(calc)}`);
    return formatOdds(calc.value.quote.odds);
  }

  async function place(body: Json): Promise<{ status: number; json: Json }> {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/frame-api/bets',
      headers: { authorization: `Bearer ${me.session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 1,
        ...body,
      }),
    });
    return { status: res.statusCode, json: res.json() };
  }

  async function report(body: Json): Promise<{ status: number; json: Json }> {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/bets',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        bet_id: `builder-${randomUUID()}`,
        player_id: 'builder-mts',
        stake: { value: '10', currency_code: 'EUR' },
        created_at: new Date().toISOString(),
        selections: [],
        ...body,
      }),
    });
    return { status: res.statusCode, json: res.json() };
  }

  async function exposureOf(event: string): Promise<Map<string, string>> {
    const rows = await w.t.deps.database.db
      .selectFrom('risk_exposure')
      .select(['market_id', 'odd_id', 'amount'])
      .where('white_label_id', '=', me.whiteLabelId)
      .where('sport_event_id', '=', event)
      .execute();
    return new Map(rows.map((r) => [`${r.market_id}/${r.odd_id}`, String(r.amount)]));
  }

  async function advise(body: Json): Promise<{ status: number; json: Json }> {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/bets/advisory',
      headers: { authorization: `Bearer ${me.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        bet_id: `advice-${randomUUID()}`,
        player_id: 'builder-advice',
        stake: { value: '10', currency_code: 'EUR' },
        created_at: new Date().toISOString(),
        selections: [],
        ...body,
      }),
    });
    return { status: res.statusCode, json: res.json() };
  }

  const callbacksOf = (betId: string) => w.partner.received.filter((c) => c.json.bet_id === betId);

  it('places a single builder through the frame API: one selection at its repriced combined odds, in bet_bet_builder_odds', async () => {
    const odds = offered(football, HOME_AND_OVER);
    const before = await exposureOf(football);
    const r = await place({
      selections: [],
      bet_builders: [{ sport_event_id: football, legs: HOME_AND_OVER, odds }],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ status: 1, state: 'accepted', total_odds: odds, selections: [] });
    expect(r.json.bet_builders).toEqual([
      expect.objectContaining({
        sport_event_id: football,
        odds,
        requested_odds: odds,
        status: 0,
        legs: [
          expect.objectContaining({ market_id: '1', odd_id: '1', odds: '2.100000' }),
          expect.objectContaining({ market_id: '18', odd_id: '12', odds: '1.950000' }),
        ],
      }),
    ]);
    const id = r.json.id as string;
    await waitUntil(() => callbacksOf(id).some((c) => c.path === '/bet/accept'));
    const [placeCb, acceptCb] = callbacksOf(id);
    for (const [name, cb] of [
      ['place', placeCb],
      ['accept', acceptCb],
    ] as const) {
      expect(isCallbackBody(name, cb?.json), JSON.stringify(cb?.json)).toBe(true);
      expect(cb?.json).toMatchObject({
        bet_type: 1,
        bet_odds: [],
        bet_system_sizes: [1],
        total_odds_value: odds,
      });
      const [builder] = cb?.json.bet_bet_builder_odds as Json[];
      expect(builder).toMatchObject({
        bet_builder_index: 0,
        match_id: football,
        odd_ratio: odds,
        odd_status: 0,
      });
      expect(Number(builder?.probability)).toBeGreaterThan(0.2);
      expect((builder?.inner_odds as Json[]).map((o) => [o.market_id, o.odd_id, o.odd_ratio])).toEqual([
        ['1', '1', '2.100000'],
        ['18', '12', '1.950000'],
      ]);
    }
    // the builder's potential win sits on each inner outcome (D61)
    const after = await exposureOf(football);
    const win = (Number(odds) - 1) * 10;
    for (const key of ['1/1', '18/12']) {
      expect(Number(after.get(key) ?? 0) - Number(before.get(key) ?? 0)).toBeCloseTo(win, 4);
    }
    // no cash-out of a bet with a builder yet (its legs are not an express)
    const quote = await w.t.app.inject({
      method: 'POST',
      url: `/frame-api/bets/${id}/cash-out/calculate`,
      headers: { authorization: `Bearer ${me.session}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(quote.json()).toMatchObject({ available: false, reason: 'bet_builder' });
    const stored = await w.t.deps.database.db
      .selectFrom('bet_builder')
      .selectAll()
      .where('bet_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.margin)).toBe(0.1);
    expect(Number(stored.probability)).toBeGreaterThan(0);
  });

  it('places an express of a builder and a plain selection: the total is the product of the combined and the plain odds', async () => {
    const odds = offered(football, HOME_AND_OVER);
    const r = await place({
      bet_type: 'express',
      selections: [{ sport_event_id: other, market_id: '1', odd_id: '1', odds: '1.5' }],
      bet_builders: [{ sport_event_id: football, legs: HOME_AND_OVER, odds }],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ status: 1, system_sizes: [2] });
    expect(Number(r.json.total_odds)).toBeCloseTo(Number(odds) * 1.5, 6);
    const id = r.json.id as string;
    await waitUntil(() => callbacksOf(id).some((c) => c.path === '/bet/accept'));
    const acceptCb = callbacksOf(id).find((c) => c.path === '/bet/accept');
    expect(isCallbackBody('accept', acceptCb?.json)).toBe(true);
    expect((acceptCb?.json.bet_odds as Json[]).map((o) => o.match_id)).toEqual([other]);
    expect((acceptCb?.json.bet_bet_builder_odds as Json[]).map((b) => b.match_id)).toEqual([football]);
    expect(acceptCb?.json.bet_system_sizes).toEqual([2]);
  });

  it('declines a contradictory builder with a reason naming the leg, and a builder on an event the express already has', async () => {
    const r = await place({
      selections: [],
      bet_builders: [{ sport_event_id: football, legs: CONTRADICTORY, odds: '5' }],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.status).toBe(2);
    expect(r.json.restrictions).toEqual([
      {
        type: 'wl_defined',
        context: expect.objectContaining({
          reason: 'contradictory',
          rule: 'bet builder 0: no final score wins every leg: total 1.5: under & both teams to score: yes',
          sport_event_id: football,
        }),
      },
    ]);
    const same = await place({
      bet_type: 'express',
      selections: [{ sport_event_id: football, market_id: '29', odd_id: '76', odds: '2.0' }],
      bet_builders: [
        { sport_event_id: football, legs: HOME_AND_OVER, odds: offered(football, HOME_AND_OVER) },
      ],
    });
    expect(same.json.status).toBe(2);
    expect((same.json.restrictions as Restriction[]).map((x) => x.context.reason)).toContain(
      'selections_on_same_sport_event',
    );
  });

  it('declines a builder whose leg is bet-stopped, and a builder whose combined odds moved beyond the strategy', async () => {
    const odds = offered(football, HOME_AND_OVER);
    const moved = await place({
      selections: [],
      bet_builders: [{ sport_event_id: football, legs: HOME_AND_OVER, odds: (Number(odds) + 1).toFixed(3) }],
    });
    expect(moved.json.status).toBe(2);
    expect(moved.json.restrictions).toEqual([
      {
        type: 'selection_value',
        context: expect.objectContaining({ sport_event_id: football, market_id: 'bet_builder', odd_id: '0' }),
      },
    ]);
    await w.trading(setBetStop(w.t.deps, { id: football, betStop: true }));
    try {
      const r = await place({
        selections: [],
        bet_builders: [{ sport_event_id: football, legs: HOME_AND_OVER, odds }],
      });
      expect(r.json.status).toBe(2);
      expect(r.json.restrictions).toEqual([
        { type: 'sport_event_bet_stop', context: expect.objectContaining({ sport_event_id: football }) },
      ]);
    } finally {
      await w.trading(setBetStop(w.t.deps, { id: football, betStop: false }));
    }
  });

  it('reports a single builder and an express with a builder through MTS POST /bets', async () => {
    const odds = offered(football, HOME_AND_OVER);
    const before = await exposureOf(football);
    const single = await report({
      type: { code: 0, system_sizes: [1] },
      bet_builders: [{ sport_event_id: football, legs: HOME_AND_OVER, value: odds }],
    });
    expect(single.status, JSON.stringify(single.json)).toBe(201);
    expect(single.json.restrictions).toEqual([]);
    const express = await report({
      type: { code: 1, system_sizes: [2] },
      selections: [{ sport_event_id: other, market_id: '1', odd_id: '2', value: '2.5' }],
      bet_builders: [{ sport_event_id: football, legs: HOME_AND_OVER, value: odds }],
    });
    expect(express.status, JSON.stringify(express.json)).toBe(201);
    expect(express.json.restrictions).toEqual([]);
    // the partner's bet object counts the builder as one selection and lists it with its legs
    const bet = express.json.bet as {
      type: unknown;
      selections: unknown[];
      bet_builders?: Array<{ sport_event_id: string; status: number; legs: Array<{ odd_id: string }> }>;
    };
    expect(bet.type).toEqual({ code: 1, system_sizes: [2] });
    expect(bet.selections).toHaveLength(1);
    expect(bet.bet_builders).toHaveLength(1);
    expect(bet.bet_builders?.[0]).toMatchObject({ sport_event_id: football, status: 0 });
    expect(bet.bet_builders?.[0]?.legs.map((l) => l.odd_id)).toEqual(HOME_AND_OVER.map((l) => l.odd_id));
    const rows = await w.t.deps.database.db
      .selectFrom('bet')
      .innerJoin('bet_builder', 'bet_builder.bet_id', 'bet.id')
      .select(['bet.total_odds', 'bet.state', 'bet_builder.odds', 'bet.bet_type'])
      .where('bet.white_label_id', '=', me.whiteLabelId)
      .where('bet.source', '=', 'mts')
      .orderBy('bet.created_at')
      .execute();
    expect(rows.map((x) => [x.bet_type, x.state, Number(x.odds)])).toEqual([
      ['single', 'accepted', Number(odds)],
      ['express', 'accepted', Number(odds)],
    ]);
    expect(Number(rows[1]?.total_odds)).toBeCloseTo(Number(odds) * 2.5, 6);
    const after = await exposureOf(football);
    expect(Number(after.get('1/1')) - Number(before.get('1/1') ?? 0)).toBeGreaterThan(0);
    expect(Number(after.get('18/12')) - Number(before.get('18/12') ?? 0)).toBeCloseTo(
      Number(after.get('1/1')) - Number(before.get('1/1') ?? 0),
      6,
    );
    // the exposure kept agrees with a recompute from the bets (a builder's legs at its combined odds)
    const recomputed = await recomputeExposure(w.t.deps.database.db);
    expect(recomputed.bet_differences).toEqual([]);
    expect(recomputed.outcome_differences).toEqual([]);
    const contradictory = await report({
      type: { code: 0, system_sizes: [1] },
      bet_builders: [{ sport_event_id: football, legs: CONTRADICTORY, value: '5' }],
    });
    expect(contradictory.status).toBe(201);
    expect(contradictory.json.restrictions).toEqual([
      expect.objectContaining({
        type: 'wl_defined',
        context: expect.objectContaining({ reason: 'contradictory' }),
      }),
    ]);
  });

  it('advises on builders: none for a priced one, the refusal for a contradictory one', async () => {
    const good = await advise({
      type: { code: 0, system_sizes: [1] },
      bet_builders: [
        { sport_event_id: football, legs: HOME_AND_OVER, value: offered(football, HOME_AND_OVER) },
      ],
    });
    expect(good.status, JSON.stringify(good.json)).toBe(201);
    expect(good.json.restrictions).toEqual([]);
    const bad = await advise({
      type: { code: 0, system_sizes: [1] },
      bet_builders: [{ sport_event_id: football, legs: CONTRADICTORY, value: '5' }],
    });
    expect(bad.json.restrictions).toEqual([
      expect.objectContaining({
        type: 'wl_defined',
        context: expect.objectContaining({ reason: 'contradictory' }),
      }),
    ]);
  });
});
