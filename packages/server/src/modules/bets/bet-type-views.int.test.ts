import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, injectJson } from '../../testing/inject.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';

type Kind = 'single' | 'express' | 'system';

/**
 * Every view of a bet shows its type's `system_sizes` by the one rule of the MTS and advisory contract — `[1]` for a
 * single, `[n]` for an express of n selections (foreign ones count), the chosen sizes for a system — for a frame bet
 * and a reported (MTS) bet alike: the frame API's bet and list, the `/bet/place` and `/bet/accept` callbacks, the
 * answer of `POST /bets`, and the partner's `GET /bets/{bet_id}` and `GET /bets`.
 */
describe(`system_sizes in every view of a bet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let me: { whiteLabelId: string; session: string; token: string };
  let events: [string, string, string];
  const expected: Record<Kind, number[]> = { single: [1], express: [2], system: [2, 3] };

  beforeAll(async () => {
    w = await settlementWorld({ env: { PLAYER_RATE_LIMIT: '0', PARTNER_RATE_LIMIT: '0' } });
    me = await w.newPlayer('views-1');
    events = [await w.newEvent(1), await w.newEvent(1), await w.newEvent(1)];
  });
  afterAll(async () => {
    await w?.close();
  });

  async function call(token: string, method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await injectJson(w.t.app, method, url, body, bearer(token));
    return { status: res.statusCode, json: res.json() };
  }

  /** The partner's views of a bet: `GET /bets/{bet_id}` and its row in `GET /bets`. */
  async function partnerSizes(id: string): Promise<{ one: number[]; listed: number[] }> {
    const one = await call(me.token, 'GET', `/bets/${encodeURIComponent(id)}`);
    expect(one.status, JSON.stringify(one.json)).toBe(200);
    const list = await call(me.token, 'GET', '/bets?limit=500');
    const row = (list.json.items as Array<{ id: string; type: { system_sizes: number[] } }>).find(
      (b) => b.id === id,
    );
    return { one: one.json.type.system_sizes, listed: row?.type.system_sizes ?? [] };
  }

  it('a frame bet: the frame view and list, the place and accept callbacks, the partner views', async () => {
    const [a, b, c] = events;
    const bodies: Record<Kind, Record<string, unknown>> = {
      single: { selections: [w.sel(a)] },
      express: { bet_type: 'express', selections: [w.sel(a), w.sel(b)] },
      system: { bet_type: 'system', system_sizes: [2, 3], selections: [w.sel(a), w.sel(b), w.sel(c)] },
    };
    for (const kind of ['single', 'express', 'system'] as const) {
      const placed = await w.place(me.session, bodies[kind]);
      expect(placed.system_sizes, kind).toEqual(expected[kind]);
      expect((await w.bet(me.session, placed.id)).system_sizes, kind).toEqual(expected[kind]);
      const history = await call(me.session, 'GET', '/frame-api/bets?limit=100');
      const row = (history.json.items as Array<{ id: string; system_sizes: number[] }>).find(
        (x) => x.id === placed.id,
      );
      expect(row?.system_sizes, kind).toEqual(expected[kind]);
      await waitUntil(() => w.partner.at('/bet/accept').some((cb) => cb.json.bet_id === placed.id));
      const callbacks = w.partner.received.filter(
        (cb) => cb.json.bet_id === placed.id && (cb.path === '/bet/place' || cb.path === '/bet/accept'),
      );
      expect(callbacks.map((cb) => cb.path)).toEqual(['/bet/place', '/bet/accept']);
      for (const cb of callbacks)
        expect(cb.json.bet_system_sizes, `${kind} ${cb.path}`).toEqual(expected[kind]);
      expect(await partnerSizes(placed.id), kind).toEqual({ one: expected[kind], listed: expected[kind] });
    }
  });

  it('a reported bet: the answer of POST /bets and the partner views, a foreign selection counting', async () => {
    const [a, b, c] = events;
    const sel = (event: string) => ({ sport_event_id: event, market_id: '1', odd_id: '1', value: '1.5' });
    const report = async (type: { code: number; system_sizes: number[] }, over: Record<string, unknown>) => {
      const r = await call(me.token, 'POST', '/bets', {
        bet_id: `views-${randomUUID()}`,
        player_id: 'views-mts',
        type,
        stake: { value: '10', currency_code: 'EUR' },
        odds_strategy: 3,
        created_at: new Date().toISOString(),
        selections: [],
        ...over,
      });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      expect(r.json.bet.status.code, JSON.stringify(r.json.restrictions)).toBe(1);
      return r.json.bet as { id: string; type: { code: number; system_sizes: number[] } };
    };
    const cases: Array<[Kind, { code: number; system_sizes: number[] }, Record<string, unknown>]> = [
      ['single', { code: 0, system_sizes: [1] }, { selections: [sel(a)] }],
      ['express', { code: 1, system_sizes: [2] }, { selections: [sel(a), sel(b)] }],
      // a mixed combo: one platform selection and one foreign, an express of two
      [
        'express',
        { code: 1, system_sizes: [2] },
        { selections: [sel(c)], foreign_selections: [{ id: 'views-ext', value: '2' }] },
      ],
      ['system', { code: 2, system_sizes: [2, 3] }, { selections: [sel(a), sel(b), sel(c)] }],
    ];
    for (const [kind, type, over] of cases) {
      const bet = await report(type, over);
      expect(bet.type, kind).toEqual({ code: type.code, system_sizes: expected[kind] });
      expect(await partnerSizes(bet.id), kind).toEqual({ one: expected[kind], listed: expected[kind] });
    }
  });
});
