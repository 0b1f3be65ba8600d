import { randomUUID } from 'node:crypto';
import { isCallbackBody } from '@bookie/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../../../testing/partner.js';
import { insertBet, transitionBets } from '../../bets/index.js';
import { recordBetRollback } from '../../trading/record-bet-rollback.js';
import { firstOddWon, type SettlementWorld, settlementWorld } from '../settlement.testing.js';

/**
 * Bets carrying bet builders settled from market results through the real consumer (D63): a builder's inner legs are
 * resulted like any selection, the builder is one selection at its combined odds; unsettle and resettle follow the
 * inner legs. Bets are written straight into the bet tables (placement is not under test here).
 */
describe(`settlement of bet builders (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let whiteLabelId: string;
  let token: string;

  beforeAll(async () => {
    w = await settlementWorld();
    ({ whiteLabelId, token } = await w.newPlayer('p1'));
  });
  afterAll(async () => {
    await w?.close();
  });

  const info = (market: string) => ({
    provider_id: 'bookie',
    sport_id: 'football',
    tournament_id: 't1',
    market_type: market,
    state: 'prematch',
    start_time: '2030-06-01T18:00:00Z',
    competitors: [
      { id: 'c1', type: 2 },
      { id: 'c2', type: 2 },
    ],
  });
  const leg = (eventId: string, marketId: string, oddId: string, odds = '1.5') => ({
    sportEventId: eventId,
    marketId,
    oddId,
    requestedOdds: odds,
    odds,
    oddUpdatedAt: new Date(),
    matchStatus: 0,
    eventInfo: info(marketId),
  });

  /** Writes an accepted bet of plain selections and builders (each: event, combined odds, inner legs m/o). */
  async function betWith(o: {
    whiteLabelId?: string;
    plain?: Array<[string, string, string, string]>;
    builders: Array<{ eventId: string; odds: string; legs: Array<[string, string]> }>;
  }): Promise<string> {
    const id = randomUUID();
    const now = new Date();
    const plain = (o.plain ?? []).map(([e, m, odd, odds]) => leg(e, m, odd, odds));
    const n = plain.length + o.builders.length;
    const total = [...(o.plain ?? []).map((p) => Number(p[3])), ...o.builders.map((b) => Number(b.odds))]
      .reduce((a, b) => a * b, 1)
      .toFixed(6); // test data only: the odds below multiply exactly
    await w.t.deps.database.db.transaction().execute((tx) =>
      insertBet(tx, {
        id,
        whiteLabelId: o.whiteLabelId ?? whiteLabelId,
        playerId: 'p1',
        currency: 'EUR',
        betType: n > 1 ? 'express' : 'single',
        systemSizes: [],
        stake: '10',
        oddsStrategy: 3,
        baseOdds: total,
        totalOdds: total,
        freebetId: null,
        insuranceId: null,
        boostId: null,
        foreignParams: {},
        sessionTokenHash: null,
        clientKey: null,
        createdAt: now,
        placementDeadline: new Date(now.getTime() + 30_000),
        selections: plain,
        builders: o.builders.map((b) => ({
          sportEventId: b.eventId,
          requestedOdds: b.odds,
          odds: b.odds,
          probability: '0.2',
          refundProbability: '0',
          margin: '0.1',
          legs: b.legs.map(([m, odd]) => leg(b.eventId, m, odd)),
        })),
      }),
    );
    await transitionBets(w.t.deps.database.db, 'hold_requested', 'accepted', [{ id, decidedAt: now }]);
    return id;
  }

  type Builder = {
    odd_status: number;
    status_reason?: string;
    odd_ratio: string;
    inner_odds: Array<{ odd_status: number }>;
  };
  const builders = (c: { json: Record<string, unknown> }) => c.json.bet_bet_builder_odds as Builder[];
  const stored = (betId: string) =>
    w.t.deps.database.db
      .selectFrom('bet')
      .select(['state', 'settle_status', 'settle_type', 'payout'])
      .where('id', '=', betId)
      .executeTakeFirstOrThrow();
  const builderRow = (betId: string) =>
    w.t.deps.database.db
      .selectFrom('bet_builder')
      .select(['status', 'status_reason', 'result_source'])
      .where('bet_id', '=', betId)
      .executeTakeFirstOrThrow();

  it('a won builder pays its combined odds; a lost leg loses it at once; a cancelled leg refunds it whole', async () => {
    const e = await w.newEvent(4);
    const won = await betWith({
      builders: [
        {
          eventId: e,
          odds: '4.25',
          legs: [
            ['1', '1'],
            ['2', '1'],
          ],
        },
      ],
    });
    const lost = await betWith({
      builders: [
        {
          eventId: e,
          odds: '6.5',
          legs: [
            ['1', '1'],
            ['3', '2'],
          ],
        },
      ],
    });
    // lost by its market-2 leg before its market-4 leg is resulted
    const early = await betWith({
      builders: [
        {
          eventId: e,
          odds: '3',
          legs: [
            ['4', '1'],
            ['2', '2'],
          ],
        },
      ],
    });
    const voided = await betWith({
      builders: [
        {
          eventId: e,
          odds: '5.5',
          legs: [
            ['1', '1'],
            ['3', '3'],
          ],
        },
      ],
    });

    // market 2 first: odd 2 loses → the "early" builder is lost although its market-4 leg is not resulted
    await w.result(e, [firstOddWon('2')]);
    const [earlySettle] = await w.settlementsFor(early, 1);
    expect(earlySettle!.json).toMatchObject({ settle_amount: '0.000000', settle_type: 3, bet_odds: [] });
    expect(builders(earlySettle!)[0]).toMatchObject({ odd_status: 2, odd_ratio: '3.000000' });
    expect(builders(earlySettle!)[0]!.inner_odds.map((o) => o.odd_status)).toEqual([0, 2]);
    // the won one still waits for market 1
    expect(w.settlementsOf(won)).toEqual([]);
    expect(await builderRow(won)).toMatchObject({ status: 0 });

    await w.result(e, [
      firstOddWon('1'),
      {
        id: '3',
        odds: [
          { id: '1', status: 1 },
          { id: '2', status: 2 },
          { id: '3', status: 6 },
        ],
      },
    ]);
    const [w1] = await w.settlementsFor(won, 1);
    expect(isCallbackBody('settle', w1!.json)).toBe(true);
    expect(w1!.json).toMatchObject({ settle_amount: '42.500000', settle_type: 1, bet_odds: [] });
    expect(builders(w1!)).toHaveLength(1);
    expect(builders(w1!)[0]).toMatchObject({ odd_status: 1, odd_ratio: '4.250000' });
    expect(builders(w1!)[0]!.inner_odds.map((o) => o.odd_status)).toEqual([1, 1]);
    expect(await stored(won)).toMatchObject({ state: 'settled', settle_status: 3, settle_type: 1 });

    const [l1] = await w.settlementsFor(lost, 1);
    expect(l1!.json).toMatchObject({ settle_amount: '0.000000', settle_type: 3 });
    expect(builders(l1!)[0]).toMatchObject({ odd_status: 2 });

    const [v1] = await w.settlementsFor(voided, 1);
    expect(v1!.json).toMatchObject({ settle_amount: '10.000000', settle_type: 2 });
    expect(builders(v1!)[0]).toMatchObject({ odd_status: 6 });
    expect(builders(v1!)[0]!.inner_odds.map((o) => o.odd_status)).toEqual([1, 6]);
    // every selection void: refunded (bet status 5)
    expect(await stored(voided)).toMatchObject({ state: 'settled', settle_status: 5, settle_type: 2 });
    expect(await builderRow(voided)).toMatchObject({ status: 6, result_source: 'feed' });
  });

  it('an express of a builder and a plain selection; unsettled when an inner leg goes back to 0, resettled on its new result', async () => {
    const e = await w.newEvent(2);
    const e2 = await w.newEvent(1);
    const id = await betWith({
      plain: [[e2, '1', '1', '1.5']],
      builders: [
        {
          eventId: e,
          odds: '4',
          legs: [
            ['1', '1'],
            ['2', '1'],
          ],
        },
      ],
    });
    await w.result(e2, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    await w.result(e, [
      { id: '1', odds: [{ id: '1', status: 1 }] },
      { id: '2', odds: [{ id: '1', status: 1 }] },
    ]);
    const [s1] = await w.settlementsFor(id, 1);
    expect(s1!.json).toMatchObject({ settle_amount: '60.000000', settle_type: 1 });
    expect((s1!.json.bet_odds as unknown[]).length).toBe(1);
    expect(builders(s1!)[0]).toMatchObject({ odd_status: 1 });

    // the result of an inner leg's market is taken back: the builder is open again, the bet unsettled
    await w.result(e, [{ id: '2', odds: [{ id: '1', status: 0 }] }]);
    const chain = await w.settlementsFor(id, 2);
    expect(chain[1]!.path).toBe('/bet/unsettle');
    expect(chain[1]!.json).toMatchObject({ unsettle_amount: '60.000000' });
    expect(await stored(id)).toMatchObject({ state: 'unsettled' });
    expect(await builderRow(id)).toMatchObject({ status: 0 });

    // resulted again, as a loss this time: the builder and the express are lost
    await w.result(e, [{ id: '2', odds: [{ id: '1', status: 2 }] }]);
    const after = await w.settlementsFor(id, 3);
    expect(after[2]!.path).toBe('/bet/settle');
    expect(after[2]!.json).toMatchObject({ settle_amount: '0.000000', settle_type: 3 });
    expect(builders(after[2]!)[0]).toMatchObject({ odd_status: 2 });

    // and a win again: resettled (unsettle 0, settle 60)
    await w.result(e, [{ id: '2', odds: [{ id: '1', status: 1 }] }]);
    const last = await w.settlementsFor(id, 5);
    expect(last.slice(3).map((c) => [c.path, c.json.settle_amount ?? c.json.unsettle_amount])).toEqual([
      ['/bet/unsettle', '0.000000'],
      ['/bet/settle', '60.000000'],
    ]);
    expect(await stored(id)).toMatchObject({ state: 'settled', settle_type: 1, settle_status: 3 });
    expect(await builderRow(id)).toMatchObject({ status: 1 });
  });

  it('a bet carrying a builder is not cashed out: the quote and the order say bet_builder (D65)', async () => {
    const e = await w.newEvent(2);
    const id = await betWith({
      builders: [
        {
          eventId: e,
          odds: '4',
          legs: [
            ['1', '1'],
            ['2', '1'],
          ],
        },
      ],
    });
    const call = (url: string, body: Record<string, unknown>) =>
      w.t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
    const quote = await call(`/bets/${id}/cash-out-orders/calculate`, { amount: '10' });
    expect(quote.statusCode).toBe(200);
    expect(quote.json()).toMatchObject({ available: false, reason: 'bet_builder' });
    const order = await call(`/bets/${id}/cash-out-orders/place`, {
      id: 'o1',
      amount: '10',
      refund_amount: '5',
    });
    expect(order.json()).toMatchObject({ order: { status: { code: 'declined', reason: 'bet_builder' } } });
    expect(await stored(id)).toMatchObject({ state: 'accepted' });
  });

  it('a bet_rollback catching an inner leg of a settled builder refunds it whole, with the rollback reason', async () => {
    const e = await w.newEvent(2);
    const dtStart = new Date(Date.now() - 1000).toISOString();
    const id = await betWith({
      builders: [
        {
          eventId: e,
          odds: '4',
          legs: [
            ['1', '1'],
            ['2', '1'],
          ],
        },
      ],
    });
    await w.result(e, [
      { id: '1', odds: [{ id: '1', status: 1 }] },
      { id: '2', odds: [{ id: '1', status: 1 }] },
    ]);
    await w.settlementsFor(id, 1);
    const r = await w.trading(
      recordBetRollback(w.t.deps, {
        id: e,
        body: {
          reason: 'technical_error_in_coefficient',
          market_ids: ['2'],
          dt_start: dtStart,
          dt_end: new Date(Date.now() + 1000).toISOString(),
        },
      }),
    );
    await w.consumer.waitFor(r.version);
    const chain = await w.settlementsFor(id, 3);
    expect(chain.map((c) => [c.path, c.json.settle_amount ?? c.json.unsettle_amount])).toEqual([
      ['/bet/settle', '40.000000'],
      ['/bet/unsettle', '40.000000'],
      ['/bet/settle', '10.000000'],
    ]);
    expect(builders(chain[2]!)[0]).toMatchObject({
      odd_status: 6,
      status_reason: 'technical_error_in_coefficient',
    });
    expect(await builderRow(id)).toMatchObject({ status: 6, result_source: 'rollback' });
    expect(await stored(id)).toMatchObject({ settle_status: 5, settle_type: 2 });
  });

  it('an operator cancels a builder as a whole by its position after the plain selections', async () => {
    const e = await w.newEvent(2);
    const e2 = await w.newEvent(1);
    const id = await betWith({
      plain: [[e2, '1', '1', '1.5']],
      builders: [
        {
          eventId: e,
          odds: '4',
          legs: [
            ['1', '1'],
            ['2', '1'],
          ],
        },
      ],
    });
    const cancel = (selections: number[]) =>
      w.t.app.inject({
        method: 'POST',
        url: `/admin/bets/${id}/cancel`,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ reason: 'builder voided', selections }),
      });
    expect((await cancel([2])).statusCode).toBe(400); // one plain selection and one builder: 0 and 1
    expect((await cancel([1])).statusCode).toBe(200);
    expect(await builderRow(id)).toMatchObject({
      status: 6,
      status_reason: 'builder voided',
      result_source: 'manual',
    });
    await w.result(e2, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    const [s1] = await w.settlementsFor(id, 1);
    expect(s1!.json).toMatchObject({ settle_amount: '15.000000', settle_type: 1 });
    expect(builders(s1!)[0]!.inner_odds.map((o) => o.odd_status)).toEqual([6, 6]);
  });

  it('the reconciliation report counts an open builder as if its open inner legs won', async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const other = (await w.newPlayer('p2')).whiteLabelId;
    const e = await w.newEvent(2);
    const e2 = await w.newEvent(1);
    await betWith({
      whiteLabelId: other,
      builders: [
        {
          eventId: e,
          odds: '4',
          legs: [
            ['1', '1'],
            ['2', '1'],
          ],
        },
      ],
    });
    await betWith({
      whiteLabelId: other,
      plain: [[e2, '1', '1', '1.5']],
      builders: [
        {
          eventId: e,
          odds: '4',
          legs: [
            ['1', '1'],
            ['2', '2'],
          ],
        },
      ],
    });
    await w.result(e, [{ id: '1', odds: [{ id: '1', status: 1 }] }]); // one inner leg won, the other open
    const to = new Date(Date.now() + 60_000).toISOString();
    const r = await w.t.app.inject({
      method: 'GET',
      url: `/admin/reports/reconcile?from=${from}&to=${to}`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(r.statusCode).toBe(200);
    const line = (r.json().totals as Array<{ white_label_id: string }>).find(
      (t) => t.white_label_id === other,
    );
    // 10 × 4 and 10 × 1.5 × 4
    expect(line).toMatchObject({ open_bets: 2, open_exposure: '100.000000' });
  });
});
