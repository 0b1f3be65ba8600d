import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, injectJson } from '../../testing/inject.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';

type Restriction = { type: string; context: Record<string, unknown> };
type BetType = { code: number; system_sizes: unknown };

/**
 * A bet type that does not fit its selections is one verdict whichever way the bet is reported: advice advises it
 * as `bet_type`, the risk decision (`POST /bets`) declines it with the same restriction — 201, the bet recorded
 * declined and nothing else written (no exposure, no bet time, no callback) — and `GET /restrictions` answers it
 * too. Only a malformed type is a 400 naming the field.
 */
describe(`a bet type that does not fit (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let me: { whiteLabelId: string; session: string; token: string };
  let a: string;
  let b: string;
  let c: string;

  beforeAll(async () => {
    w = await settlementWorld({ env: { PLAYER_RATE_LIMIT: '0', PARTNER_RATE_LIMIT: '0' } });
    me = await w.newPlayer('type-1');
    [a, b, c] = [await w.newEvent(2), await w.newEvent(1), await w.newEvent(1)];
  });
  afterAll(async () => {
    await w?.close();
  });

  async function call(method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await injectJson(w.t.app, method, url, body, bearer(me.token));
    return { status: res.statusCode, json: res.json() };
  }

  const sel = (event: string, market = '1', odd = '1') => ({
    sport_event_id: event,
    market_id: market,
    odd_id: odd,
    value: '1.5',
  });
  const body = (type: BetType, selections: ReturnType<typeof sel>[], player: string) => ({
    bet_id: `type-${randomUUID()}`,
    player_id: player,
    type,
    stake: { value: '10', currency_code: 'EUR' },
    selections,
    created_at: new Date().toISOString(),
  });
  const betTypeOf = (list: Restriction[]) => list.filter((r) => r.type === 'bet_type');

  /** What the bet writes outside its own rows: exposure, players' bet times, callbacks. */
  async function sideEffects() {
    const db = w.t.deps.database.db;
    const [exposure, times, callbacks] = await Promise.all([
      db.selectFrom('risk_exposure').selectAll().execute(),
      db.selectFrom('player_event_bet').selectAll().where('white_label_id', '=', me.whiteLabelId).execute(),
      db
        .selectFrom('callback_delivery')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return JSON.stringify({ exposure, times, callbacks: Number(callbacks.n) });
  }

  it('advice advises it and POST /bets declines it with the same bet_type restriction, writing nothing else', async () => {
    const cases: Array<[string, BetType, ReturnType<typeof sel>[], string]> = [
      [
        'a single of two selections',
        { code: 0, system_sizes: [1] },
        [sel(a), sel(b)],
        'single_needs_one_selection',
      ],
      ['a single without [1]', { code: 0, system_sizes: [] }, [sel(a)], 'system_sizes_mismatch'],
      [
        'an express on one sport event',
        { code: 1, system_sizes: [2] },
        [sel(a, '1'), sel(a, '2')],
        'selections_on_same_sport_event',
      ],
      [
        'an express whose size is not n',
        { code: 1, system_sizes: [3] },
        [sel(a), sel(b)],
        'system_sizes_mismatch',
      ],
      [
        'an express of one selection',
        { code: 1, system_sizes: [1] },
        [sel(a)],
        'express_needs_two_selections',
      ],
      [
        'a system size out of range',
        { code: 2, system_sizes: [4] },
        [sel(a), sel(b), sel(c)],
        'system_size_out_of_range',
      ],
      [
        'a system size of 1',
        { code: 2, system_sizes: [1, 2] },
        [sel(a), sel(b), sel(c)],
        'system_size_out_of_range',
      ],
      [
        'repeated system sizes',
        { code: 2, system_sizes: [2, 2] },
        [sel(a), sel(b), sel(c)],
        'system_sizes_not_distinct',
      ],
      [
        'a system without sizes',
        { code: 2, system_sizes: [] },
        [sel(a), sel(b), sel(c)],
        'system_sizes_missing',
      ],
    ];
    for (const [name, type, selections, reason] of cases) {
      const advised = await call('POST', '/bets/advisory', {
        ...body(type, selections, 'type-advised'),
        site_id: 'acme.example',
      });
      expect(advised.status, name).toBe(201);
      const advice = betTypeOf(advised.json.restrictions);
      expect(
        advice.map((r) => r.context.reason),
        name,
      ).toContain(reason);

      const before = await sideEffects();
      const reported = body(type, selections, 'type-reported');
      const decided = await call('POST', '/bets', reported);
      expect(decided.status, `${name}: ${JSON.stringify(decided.json)}`).toBe(201);
      expect(decided.json.bet.status, name).toEqual({ code: 2, reason: 'bet_type' });
      expect(betTypeOf(decided.json.restrictions), name).toEqual(advice);
      expect(decided.json.bet.restrictions, name).toEqual(decided.json.restrictions);
      expect(decided.json.bet.accepted_at, name).toBeNull();

      // recorded declined, as GET /bets/{bet_id} reads it; a repeat answers the same
      const row = await w.t.deps.database.db
        .selectFrom('bet')
        .select(['state', 'source'])
        .where('white_label_id', '=', me.whiteLabelId)
        .where('partner_bet_id', '=', reported.bet_id)
        .executeTakeFirstOrThrow();
      expect(row, name).toEqual({ state: 'declined', source: 'mts' });
      const read = await call('GET', `/bets/${encodeURIComponent(reported.bet_id)}`);
      expect(read.json, name).toEqual(decided.json.bet);
      expect((await call('POST', '/bets', reported)).json, name).toEqual(decided.json);
      expect(await sideEffects(), name).toBe(before);
    }
  });

  it('GET /restrictions answers the same bet_type for the same bet', async () => {
    const q = (type: number, sizes: string, sels: ReturnType<typeof sel>[]) =>
      [
        'player_id=type-query',
        `type_code=${type}`,
        `system_sizes=${sizes}`,
        'currency_code=EUR',
        'stake=10',
        ...sels.map(
          (s) =>
            `selection=${encodeURIComponent([s.sport_event_id, s.market_id, s.odd_id, s.value].map(encodeURIComponent).join('/'))}`,
        ),
      ].join('&');
    const cases: Array<[number, number[], ReturnType<typeof sel>[]]> = [
      [1, [3], [sel(a), sel(b)]],
      [1, [2], [sel(a, '1'), sel(a, '2')]],
      [2, [4], [sel(a), sel(b), sel(c)]],
    ];
    for (const [code, sizes, sels] of cases) {
      const answer = await call('GET', `/restrictions?${q(code, sizes.join(','), sels)}`);
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      const decided = await call('POST', '/bets', body({ code, system_sizes: sizes }, sels, 'type-query'));
      expect(betTypeOf(answer.json.restrictions)).toEqual(betTypeOf(decided.json.restrictions));
      expect(betTypeOf(answer.json.restrictions)).not.toEqual([]);
    }
  });

  it('a malformed type is a 400 naming the field, on both', async () => {
    for (const [type, field] of [
      [{ code: 3, system_sizes: [1] }, 'type.code'],
      [{ code: 2, system_sizes: ['x'] }, 'type.system_sizes'],
      [{ code: 0 }, 'type.system_sizes'],
    ] as const) {
      for (const url of ['/bets', '/bets/advisory']) {
        const r = await call('POST', url, {
          ...body(type as BetType, [sel(a)], 'type-bad'),
          ...(url === '/bets/advisory' ? { site_id: 'acme.example' } : {}),
        });
        expect(r.status, `${url} ${JSON.stringify(type)}`).toBe(400);
        // the body schema refuses it, naming the field under `body`
        expect(r.json.error.details.field, `${url} ${JSON.stringify(type)}`).toMatch(
          new RegExp(`^body\\.${field.replace('.', '\\.')}`),
        );
      }
    }
  });
});
