import { randomUUID } from 'node:crypto';
import { add, formatMoney, mul, parseDecimal, sub } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { sampleEvent } from '../trading/fixtures.js';

type Json = Record<string, unknown>;
type OddResult = { id: string; status: number };
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the callback carries
type Body = any;

const market = (
  id: string,
  typeId: number,
  specifiers: Record<string, string>,
  odds: [string, string][],
) => ({
  id,
  type_id: typeId,
  template: `market ${typeId}`,
  specifiers,
  odds: odds.map(([oddId, value]) => ({ id: oddId, value, template: oddId })),
});

/** Home win (1X2) and over 2.5 goals: a builder of two legs. */
const LEGS = [
  { market_id: '1', odd_id: '1' },
  { market_id: '18', specifiers: { total: '2.5' }, odd_id: '12' },
];

const exact = (v: string) => parseDecimal(v, { field: 'amount', maxDecimals: 6 });
const times = (a: string, b: string) => formatMoney(mul(exact(a), exact(b)));

// The real server and the reference wallet as separate processes: bets with bet builders settled from market
// results, unsettled and resettled, their callbacks carrying the builders in bet_bet_builder_odds, the wallet's
// balance and ledger following them.
describe(`bet builder settlement end to end with the reference wallet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;

  /** A football event with a 1X2 market (1) and a total 2.5 market (18), visible in the frame's catalog. */
  async function footballEvent(): Promise<string> {
    const id = randomUUID();
    const ev = {
      ...sampleEvent({ id, markets: 0 }),
      markets: [
        market('1', 1, {}, [
          ['1', '2.10'],
          ['2', '3.40'],
          ['3', '3.60'],
        ]),
        market('18', 18, { total: '2.5' }, [
          ['12', '1.95'],
          ['13', '1.90'],
        ]),
      ],
    };
    const r = await p.call('POST', '/trading/sport-events', { body: ev });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const viewer = await p.session('viewer-bb');
    await waitUntil(
      async () => (await p.call('GET', `/frame-api/sport-events/${ev.id}`, { token: viewer })).status === 200,
    );
    return id;
  }

  async function place(token: string, body: Json): Promise<Body> {
    const r = await p.call('POST', '/frame-api/bets', {
      token,
      body: { bet_type: 'single', stake: '10', currency: 'EUR', odds_strategy: 3, selections: [], ...body },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json;
  }

  const builderOn = (eventId: string) => ({ sport_event_id: eventId, legs: LEGS, odds: '1.01' });

  /** Sets odd statuses per market; waits until settlement processed the entry and the outbox is delivered. */
  async function result(eventId: string, markets: Array<{ id: string; odds: OddResult[] }>) {
    const r = await p.call('PATCH', `/trading/sport-events/${eventId}/markets`, { body: { markets } });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    await waitUntil(async () => {
      const s = await p.call('GET', '/admin/settlement/status');
      return s.json.leader && BigInt(s.json.processed) >= BigInt(r.json.version);
    }, 30_000);
    await delivered();
  }
  const builderResult = (eventId: string, home: number, over: number) =>
    result(eventId, [
      { id: '1', odds: [{ id: '1', status: home }] },
      { id: '18', odds: [{ id: '12', status: over }] },
    ]);

  async function delivered() {
    let pending: unknown[] = [];
    await waitUntil(async () => {
      const r = await p.call('GET', '/admin/callbacks?status=pending&limit=10');
      pending = r.json.items.filter((i: { mode: string }) => i.mode === 'async');
      return pending.length === 0;
    }, 30_000).catch((e) => {
      throw new Error(`callbacks still pending: ${JSON.stringify(pending)}`, { cause: e });
    });
  }

  /** The bodies of the bet's callbacks to `path`, oldest first, as the wallet received them. */
  async function callbacks(betId: string, path: string): Promise<Body[]> {
    const list = (await p.call('GET', `/admin/callbacks?bet_id=${betId}&limit=50`)).json.items as Array<{
      id: string;
      path: string;
      status: string;
    }>;
    const mine = list.filter((i) => i.path === path).reverse();
    for (const i of mine) expect(i.status).toBe('delivered');
    return Promise.all(
      mine.map(async (i) =>
        JSON.parse((await p.call('GET', `/admin/callbacks/${i.id}`)).json.body as string),
      ),
    );
  }

  const balance = async (player: string) => (await p.walletApi.balance(player)).available;

  beforeAll(async () => {
    p = await startPlatform({
      env: { CALLBACK_POLL_MS: '100', PLAYER_RATE_LIMIT: '0', PARTNER_RATE_LIMIT: '0' },
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null } },
    });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it('a builder single wins when every leg wins and loses when one leg loses; the settle callbacks carry the builder', async () => {
    const won = await footballEvent();
    const lost = await footballEvent();
    await p.walletApi.deposit('bb-wl', '100');
    const s = await p.session('bb-wl', { sid: 'bb-wl', currency: 'EUR' });
    const winner = await place(s, { bet_builders: [builderOn(won)] });
    const loser = await place(s, { bet_builders: [builderOn(lost)] });
    expect([winner.status, loser.status]).toEqual([1, 1]);
    await delivered();
    expect(await balance('bb-wl')).toBe('80.000000');
    const odds = winner.bet_builders[0].odds as string;

    await builderResult(won, 1, 1);
    const payout = times('10', odds);
    expect(await balance('bb-wl')).toBe(formatMoney(add(exact('80'), exact(payout))));
    const [win] = await callbacks(winner.id, '/bet/settle');
    expect(win).toMatchObject({ settle_type: 1, settle_amount: payout, bet_odds: [] });
    expect(win.bet_bet_builder_odds).toHaveLength(1);
    expect(win.bet_bet_builder_odds[0]).toMatchObject({
      bet_builder_index: 0,
      match_id: won,
      odd_ratio: formatMoney(exact(odds)),
      odd_status: 1,
    });
    expect(
      win.bet_bet_builder_odds[0].inner_odds.map((o: Body) => [o.market_id, o.odd_id, o.odd_status]),
    ).toEqual([
      ['1', '1', 1],
      ['18', '12', 1],
    ]);

    // one leg lost, the other not resulted yet: the builder is lost already
    await builderResult(lost, 0, 2);
    expect(await balance('bb-wl')).toBe(formatMoney(add(exact('80'), exact(payout))));
    const [loss] = await callbacks(loser.id, '/bet/settle');
    expect(loss).toMatchObject({ settle_type: 3, settle_amount: '0.000000', bet_odds: [] });
    expect(loss.bet_bet_builder_odds[0].odd_status).toBe(2);
    expect(loss.bet_bet_builder_odds[0].inner_odds.map((o: Body) => o.odd_status)).toEqual([0, 2]);
    expect((await p.walletApi.checkLedger('bb-wl')).ok).toBe(true);
  }, 120_000);

  it('a builder with a cancelled inner leg is refunded whole', async () => {
    const e = await footballEvent();
    await p.walletApi.deposit('bb-void', '100');
    const s = await p.session('bb-void', { sid: 'bb-void', currency: 'EUR' });
    const bet = await place(s, { bet_builders: [builderOn(e)] });
    expect(bet.status).toBe(1);
    await delivered();
    expect(await balance('bb-void')).toBe('90.000000');

    await builderResult(e, 1, 6);
    expect(await balance('bb-void')).toBe('100.000000');
    const [settle] = await callbacks(bet.id, '/bet/settle');
    expect(settle).toMatchObject({ settle_type: 2, settle_amount: '10.000000', bet_odds: [] });
    expect(settle.bet_bet_builder_odds[0].odd_status).toBe(6);
    expect(settle.bet_bet_builder_odds[0].inner_odds.map((o: Body) => o.odd_status)).toEqual([1, 6]);
    expect((await p.walletApi.checkLedger('bb-void')).ok).toBe(true);
  }, 120_000);

  it('an express of a builder and a plain odd: won, unsettled by a rollback, resettled lost, won again', async () => {
    const football = await footballEvent();
    const other = await newSportEvent(p, 1);
    await p.walletApi.deposit('bb-x', '100');
    const s = await p.session('bb-x', { sid: 'bb-x', currency: 'EUR' });
    const bet = await place(s, {
      bet_type: 'express',
      selections: [{ sport_event_id: other, market_id: '1', odd_id: '1', odds: '1.01' }],
      bet_builders: [builderOn(football)],
    });
    expect(bet.status, JSON.stringify(bet)).toBe(1);
    await delivered();
    expect(await balance('bb-x')).toBe('90.000000');
    const plainOdds = (bet.selections as Array<{ odds: string }>)[0]!.odds;
    const payout = times(times('10', bet.bet_builders[0].odds), plainOdds);
    const won = formatMoney(add(exact('90'), exact(payout)));

    await result(other, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    expect(await balance('bb-x')).toBe('90.000000'); // the builder is not resulted yet
    await builderResult(football, 1, 1); // win
    expect(await balance('bb-x')).toBe(won);
    await builderResult(football, 1, 0); // rolled back: not resulted, unsettled
    expect(await balance('bb-x')).toBe('90.000000');
    const viewer = await p.session('bb-x');
    expect((await p.call('GET', `/frame-api/bets/${bet.id}`, { token: viewer })).json).toMatchObject({
      status: 4,
    });
    await builderResult(football, 1, 2); // resettled lost
    expect(await balance('bb-x')).toBe('90.000000');
    await builderResult(football, 1, 1); // won again
    expect(await balance('bb-x')).toBe(won);

    const settles = await callbacks(bet.id, '/bet/settle');
    expect(
      settles.map((b) => [b.settle_type, b.settle_amount, b.bet_bet_builder_odds[0].odd_status]),
    ).toEqual([
      [1, payout, 1],
      [3, '0.000000', 2],
      [1, payout, 1],
    ]);
    for (const b of settles) {
      expect(b.bet_odds.map((o: Body) => [o.match_id, o.odd_status])).toEqual([[other, 1]]);
      expect(b.bet_bet_builder_odds[0].match_id).toBe(football);
    }
    expect((await callbacks(bet.id, '/bet/unsettle')).map((b) => b.unsettle_amount)).toEqual([
      payout,
      '0.000000',
    ]);
    // the wallet's ledger: hold, credit, debit, credit (no movement for the zero settle and its unsettle)
    const ledger = (await p.walletApi.ledger('bb-x')).entries.filter((x) => x.bet_id === bet.id);
    expect(ledger.filter((x) => x.kind !== 'capture').map((x) => `${x.kind} ${x.amount}`)).toEqual([
      'hold 10.000000',
      `credit ${payout}`,
      `debit ${payout}`,
      `credit ${payout}`,
    ]);
    expect((await p.walletApi.checkLedger('bb-x')).ok).toBe(true);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const report = await p.call('GET', `/admin/reports/reconcile?from=${from}&to=${to}&bets=true`);
    expect(report.json.bets.mismatched).toBe(0);
    expect(report.json.bets.rows.find((r: { bet_id: string }) => r.bet_id === bet.id)).toMatchObject({
      settles: 3,
      unsettles: 2,
      current_payout: payout,
      ok: true,
    });
  }, 120_000);

  it('an express with a builder reported through MTS POST /bets settles', async () => {
    const football = await footballEvent();
    const other = await newSportEvent(p, 1);
    const betId = `bb-mts-${randomUUID()}`;
    const r = await p.call('POST', '/bets', {
      token: p.accessToken,
      body: {
        bet_id: betId,
        player_id: 'bb-mts',
        type: { code: 1, system_sizes: [2] },
        stake: { value: '10', currency_code: 'EUR' },
        selections: [{ sport_event_id: other, market_id: '1', odd_id: '1', value: '1.01' }],
        bet_builders: [{ sport_event_id: football, legs: LEGS, value: '1.01' }],
        odds_strategy: 3,
        // the session's params the callbacks carry in Foreign-Params: the wallet books the reported bet in EUR
        foreign_params: { currency: 'EUR' },
        created_at: new Date().toISOString(),
      },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json.bet.status.code).toBe(1);
    await result(other, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    await builderResult(football, 1, 1);
    // the partner took the stake itself: it receives only the settlement, the builder in bet_bet_builder_odds
    const payout = times('10', r.json.bet.total_odds);
    // the outbox knows the bet by Bookie's id; the callback names it by the partner's
    const recent = (await p.call('GET', '/admin/callbacks?limit=20')).json.items as Array<{ bet_id: string }>;
    const ours = await Promise.all(
      [...new Set(recent.map((i) => i.bet_id))].map(
        async (id) => [id, await callbacks(id, '/bet/settle')] as const,
      ),
    );
    const [settle, ...more] = ours.flatMap(([, bodies]) => bodies.filter((b) => b.bet_id === betId));
    expect(more).toEqual([]);
    expect(settle).toMatchObject({ settle_type: 1, settle_amount: payout });
    expect(settle.bet_odds.map((o: Body) => [o.match_id, o.odd_status])).toEqual([[other, 1]]);
    expect(settle.bet_bet_builder_odds.map((b: Body) => [b.match_id, b.odd_status])).toEqual([[football, 1]]);
    expect(await balance('bb-mts')).toBe(payout);
    expect((await p.walletApi.checkLedger('bb-mts')).ok).toBe(true);
  }, 120_000);

  it('a freebet with bet_builder_odds_count min 1 takes a builder bet and refuses a plain bet', async () => {
    const e = await footballEvent();
    await p.walletApi.deposit('bb-fb', '100');
    const s = await p.session('bb-fb', { sid: 'bb-fb', currency: 'EUR' });
    async function freebet(): Promise<string> {
      const r = await p.call('POST', '/freebet/create', {
        token: p.accessToken,
        body: {
          player_id: 'bb-fb',
          currency_code: 'EUR',
          amount: '10',
          conditions: [
            {
              type: 'bet_details',
              data: { bet_details: [{ type: 'single', data: { bet_builder_odds_count: { min: 1 } } }] },
            },
          ],
        },
      });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      return r.json.id as string;
    }
    const plain = await place(s, {
      selections: [{ sport_event_id: e, market_id: '1', odd_id: '1', odds: '1.01' }],
      freebet_id: await freebet(),
    });
    expect(plain.status).toBe(2);
    expect(plain.restrictions.map((x: Body) => [x.type, x.context.condition])).toEqual([
      ['freebet_not_applicable', 'bet_builder_odds_count'],
    ]);
    const builder = await place(s, { bet_builders: [builderOn(e)], freebet_id: await freebet() });
    expect(builder.status, JSON.stringify(builder)).toBe(1);
    await delivered();
    expect(await balance('bb-fb')).toBe('100.000000'); // a freebet stake is not the player's money
    await builderResult(e, 1, 1);
    const [settle] = await callbacks(builder.id, '/bet/settle');
    // the freebet pays the winnings without the stake
    const credit = formatMoney(sub(exact(times('10', builder.bet_builders[0].odds)), exact('10')));
    expect(settle).toMatchObject({ settle_type: 1, settle_amount: credit, bet_odds: [] });
    expect(settle.bet_bet_builder_odds[0].odd_status).toBe(1);
    expect(await balance('bb-fb')).toBe(formatMoney(add(exact('100'), exact(credit))));
    expect((await p.walletApi.checkLedger()).ok).toBe(true);
  }, 120_000);
});
