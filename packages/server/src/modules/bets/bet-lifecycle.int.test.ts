import { BET_CREATIONS, BET_TRANSITIONS, type BetCreation, type BetTransition } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer as bearerHeader, injectJson } from '../../testing/inject.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';
import { watchBetCreations, watchBetTransitions } from './index.js';

const pair = (t: Pick<BetTransition, 'from' | 'to'>) => `${t.from} → ${t.to}`;
const made = (c: Pick<BetCreation, 'source' | 'state'>) => `${c.source}: ${c.state}`;

/**
 * Walks the bet's life through the real app — placement (accept, decline, place error, force decline), settlement
 * (settle, unsettle, settle again, resettle), cash-out and its cancel, the partner's reported bets (accept, decline,
 * withdraw) — recording every state change and every creation the bets repository checks, and holds the record
 * against core's tables: every change or creation performed is in its table, and every entry is performed by some path.
 */
describe(`the bet's state changes against core's table (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let me: { whiteLabelId: string; session: string; token: string };
  const seen = new Map<string, BetTransition>();
  const created = new Map<string, BetCreation>();
  let stop: () => void;
  let stopCreations: () => void;

  beforeAll(async () => {
    stop = watchBetTransitions((t) => seen.set(pair(t), t));
    stopCreations = watchBetCreations((c) => created.set(made(c), c));
    w = await settlementWorld({
      env: {
        PLAYER_RATE_LIMIT: '0',
        PARTNER_RATE_LIMIT: '0',
        CASH_OUT_MARGIN: '0.05',
      },
    });
    me = await w.newPlayer('walk');
  });
  afterAll(async () => {
    stop?.();
    stopCreations?.();
    await w?.close();
  });

  async function call(
    bearer: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ) {
    const res = await injectJson(w.t.app, method, url, body, bearerHeader(bearer));
    return { status: res.statusCode, json: res.json() };
  }
  const placeAs = (session: string, body: Record<string, unknown>) =>
    call(session, 'POST', '/frame-api/bets', {
      bet_type: 'single',
      stake: '10',
      currency: 'EUR',
      odds_strategy: 3,
      ...body,
    });
  /** A bet's state by Bookie's id or, for a reported bet, the partner's. */
  const stateOf = async (id: string) =>
    (
      await w.t.deps.database.db
        .selectFrom('bet')
        .select('state')
        .where(/^[0-9a-f]{8}-/.test(id) ? 'id' : 'partner_bet_id', '=', id)
        .executeTakeFirstOrThrow()
    ).state;
  const until = (id: string, state: string) => waitUntil(async () => (await stateOf(id)) === state);
  async function cashOutAll(betId: string, id: string) {
    const q = await call(me.token, 'POST', `/bets/${betId}/cash-out-orders/calculate`, { amount: '10' });
    expect(q.json.available, JSON.stringify(q.json)).toBe(true);
    const r = await call(me.token, 'POST', `/bets/${betId}/cash-out-orders/place`, {
      id,
      amount: '10',
      refund_amount: q.json.refund_amount,
      quote_id: q.json.quote_id,
    });
    expect(r.json.order.status.code, JSON.stringify(r.json)).toBe('accepted');
  }
  const report = (id: string, event: string, selections = [{ market: '1', odd: '1' }], type = 0) =>
    call(me.token, 'POST', '/bets', {
      bet_id: id,
      player_id: 'walk-mts',
      type: { code: type, system_sizes: [1] },
      stake: { value: '10', currency_code: 'EUR' },
      selections: selections.map((s) => ({
        sport_event_id: event,
        market_id: s.market,
        odd_id: s.odd,
        value: '1.01',
      })),
      odds_strategy: 3,
      created_at: new Date().toISOString(),
    });

  it('places, settles, unsettles, resettles and cashes out frame bets', async () => {
    const [e1, e2, e3] = [await w.newEvent(2), await w.newEvent(2), await w.newEvent(2)];
    // accept, settle, unsettle, settle again, resettle
    const a = await w.place(me.session, { selections: [w.sel(e1, '1', '1')] });
    await w.result(e1, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    await until(a.id, 'settled');
    await w.result(e1, [{ id: '1', odds: [{ id: '1', status: 0 }] }]);
    await until(a.id, 'unsettled');
    await w.result(e1, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    await until(a.id, 'settled');
    await w.result(e1, [{ id: '1', odds: [{ id: '1', status: 2 }] }]);
    // settle, unsettle, settle, then the resettle's unsettle and settle
    await w.settlementsFor(a.id, 5);
    expect(await stateOf(a.id)).toBe('settled');

    // the whole stake cashed out, then the partner cancels the order: the bet is open again
    const b = await w.place(me.session, { selections: [w.sel(e2, '1', '1')] });
    await cashOutAll(b.id, 'walk-b');
    expect(await stateOf(b.id)).toBe('cashed_out');
    const cancel = await call(me.token, 'PATCH', `/bets/${b.id}/cash-out-orders/walk-b/cancel`);
    expect(cancel.status, JSON.stringify(cancel.json)).toBe(200);
    expect(await stateOf(b.id)).toBe('accepted');

    // an unsettled bet cashed out
    const c = await w.place(me.session, { selections: [w.sel(e3, '1', '1')] });
    await w.result(e3, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    await until(c.id, 'settled');
    await w.result(e3, [{ id: '1', odds: [{ id: '1', status: 0 }] }]);
    await until(c.id, 'unsettled');
    await cashOutAll(c.id, 'walk-c');
    expect(await stateOf(c.id)).toBe('cashed_out');
  });

  it('declines, ends a refused hold as place error and force-declines', async () => {
    const e = await w.newEvent(2);
    const declined = await placeAs(me.session, {
      bet_type: 'express',
      selections: [w.sel(e, '1', '1'), w.sel(e, '2', '1')],
    });
    expect(declined.json.status).toBe(2);

    const broke = await w.newPlayerSession(me.token, 'walk-broke');
    const flaky = await w.newPlayerSession(me.token, 'walk-flaky');
    w.partner.setAnswer((r) =>
      r.path !== '/bet/place'
        ? { status: 204 }
        : r.json.bet_player_id === 'walk-broke'
          ? { status: 400, body: { error: { code: 'not_enough_balance', data: { actual_balance: '0' } } } }
          : r.json.bet_player_id === 'walk-flaky'
            ? { status: 503 }
            : { status: 204 },
    );
    try {
      expect((await placeAs(broke, { selections: [w.sel(e, '1', '2')] })).json.status).toBe(10);
      expect((await placeAs(flaky, { selections: [w.sel(e, '1', '2')] })).json.status).toBe(11);
    } finally {
      w.partner.setAnswer(() => ({ status: 204 }));
    }
  });

  it('accepts, declines and withdraws the bets the partner reports', async () => {
    const [e1, e2] = [await w.newEvent(2), await w.newEvent(2)];
    expect((await report('walk-m1', e1)).json.bet.status.code).toBe(1);
    const twoLegs = [
      { market: '1', odd: '1' },
      { market: '2', odd: '1' },
    ];
    expect((await report('walk-m2', e1, twoLegs)).json.bet.status.code).toBe(2);
    expect((await call(me.token, 'DELETE', '/bets', { bet_id: 'walk-m1' })).status).toBe(200);
    expect(await stateOf('walk-m1')).toBe('declined');

    // an unsettled reported bet withdrawn
    expect((await report('walk-m3', e2)).json.bet.status.code).toBe(1);
    await w.result(e2, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    await until('walk-m3', 'settled');
    await w.result(e2, [{ id: '1', odds: [{ id: '1', status: 0 }] }]);
    await until('walk-m3', 'unsettled');
    expect((await call(me.token, 'DELETE', '/bets', { bet_id: 'walk-m3' })).status).toBe(200);
    expect(await stateOf('walk-m3')).toBe('declined');
  });

  it('performed only changes in the table, and every change in the table', () => {
    const table = new Set(BET_TRANSITIONS.map(pair));
    const performed = [...seen.keys()].sort();
    expect(performed.filter((p) => !table.has(p))).toEqual([]);
    expect([...table].filter((p) => !seen.has(p)).sort()).toEqual([]);
  });

  it("created bets only as core's table of creations allows, and in every way it lists", () => {
    const table = new Set(BET_CREATIONS.map(made));
    const performed = [...created.keys()].sort();
    expect(performed.filter((c) => !table.has(c))).toEqual([]);
    expect([...table].filter((c) => !created.has(c)).sort()).toEqual([]);
  });
});
