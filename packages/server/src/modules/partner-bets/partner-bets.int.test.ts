import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, injectJson } from '../../testing/inject.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';

describe(`partner REST of bets: list, get, cancel, void (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let mine: { whiteLabelId: string; session: string; token: string };
  let other: { whiteLabelId: string; session: string; token: string };
  let event: string;
  const placed: string[] = [];

  beforeAll(async () => {
    w = await settlementWorld();
    mine = await w.newPlayer('p1');
    other = await w.newPlayer('p1');
    event = await w.newEvent(2);
    for (let i = 0; i < 3; i++)
      placed.push((await w.place(mine.session, { selections: [w.sel(event, '1', '1')] })).id);
    placed.push(
      (
        await w.place((await w.newPlayerSession(mine.token, 'p2')) as string, {
          selections: [w.sel(event, '2', '2')],
        })
      ).id,
    );
  });
  afterAll(async () => {
    await w?.close();
  });

  async function call(token: string, method: 'GET' | 'POST', url: string, body?: unknown) {
    const res = await injectJson(w.t.app, method, url, body, bearer(token));
    return { status: res.statusCode, json: res.body ? res.json() : undefined };
  }

  it('lists every bet of the white label, newest first, with filters and cursor paging', async () => {
    const all = await call(mine.token, 'GET', '/bets');
    expect(all.status).toBe(200);
    expect(all.json.items.map((b: { id: string }) => b.id)).toEqual([...placed].reverse());
    expect(all.json.next).toBeNull();

    const p2 = await call(mine.token, 'GET', '/bets?player_id=p2');
    expect(p2.json.items.map((b: { id: string }) => b.id)).toEqual([placed[3]]);

    const first = await call(mine.token, 'GET', '/bets?limit=3');
    expect(first.json.items).toHaveLength(3);
    expect(first.json.next).toEqual(expect.any(String));
    const second = await call(mine.token, 'GET', `/bets?limit=3&cursor=${first.json.next}`);
    expect(second.json.items.map((b: { id: string }) => b.id)).toEqual([placed[0]]);
    expect(second.json.next).toBeNull();

    const accepted = await call(mine.token, 'GET', '/bets?status=1');
    expect(accepted.json.items.length).toBeGreaterThanOrEqual(1);
    expect(accepted.json.items.every((b: { status: { code: number } }) => b.status.code === 1)).toBe(true);
    const settled = await call(mine.token, 'GET', '/bets?status=3');
    expect(settled.json.items).toEqual([]);

    const future = new Date(Date.now() + 3_600_000).toISOString();
    const none = await call(mine.token, 'GET', `/bets?from=${encodeURIComponent(future)}`);
    expect(none.json.items).toEqual([]);
    const before = await call(mine.token, 'GET', `/bets?to=${encodeURIComponent(future)}`);
    expect(before.json.items).toHaveLength(4);

    const theirs = await call(other.token, 'GET', '/bets');
    expect(theirs.json.items).toEqual([]);
  });

  it('refuses bad filters naming the field', async () => {
    for (const [q, field] of [
      ['status=99', 'querystring.status'],
      ['status=x', 'querystring.status'],
      ['limit=0', 'querystring.limit'],
      ['limit=501', 'querystring.limit'],
      ['from=yesterday', 'querystring.from'],
      ['cursor=bm90LWEtY3Vyc29y', 'querystring.cursor'],
      ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'querystring.to'],
      ['colour=red', 'querystring.colour'],
    ] as const) {
      const r = await call(mine.token, 'GET', `/bets?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error.details.field, q).toBe(field);
    }
    const anonymous = await w.t.app.inject({ method: 'GET', url: '/bets' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('reads one bet in the D29 shape; another white label’s bet and unknown ids are 404', async () => {
    const id = placed[0] as string;
    const r = await call(mine.token, 'GET', `/bets/${id}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      id,
      player_id: 'p1',
      source: 'frame',
      status: { code: 1, reason: null },
      type: { code: 0, system_sizes: [1] },
      stake: { value: '10.000000', currency_code: 'EUR' },
      total_odds: '1.500000',
      selections: [{ sport_event_id: event, market_id: '1', odd_id: '1', value: '1.500000', status: 0 }],
      foreign_selections: [],
      cash_out_orders: {},
      foreign_cash_out_orders: [],
      settlement: null,
      refund: null,
    });
    expect(r.json.accepted_at).toEqual(expect.any(String));
    expect((await call(other.token, 'GET', `/bets/${id}`)).status).toBe(404);
    expect((await call(mine.token, 'GET', '/bets/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call(mine.token, 'GET', '/bets/not-a-bet')).status).toBe(404);
  });

  it('cancels a bet before settlement: status 5, stake back in /bet/settle, audited; void gives status 6', async () => {
    const [a, b] = placed as [string, string];
    expect((await call(other.token, 'POST', `/bets/${a}/cancel`, { reason: 'x' })).status).toBe(404);
    const bad = await call(mine.token, 'POST', `/bets/${a}/cancel`, {});
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe('body.reason');
    const blank = await call(mine.token, 'POST', `/bets/${a}/cancel`, { reason: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.json.error.details.field).toBe('reason');

    const cancelled = await call(mine.token, 'POST', `/bets/${a}/cancel`, { reason: 'event moved' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({
      transition: 'settled',
      callbacks: 1,
      bet: {
        status: { code: 5, reason: 'event moved' },
        refund: { value: '10.000000', currency_code: 'EUR' },
      },
    });
    const [settle] = await w.settlementsFor(a, 1);
    expect(settle?.json).toMatchObject({ settle_amount: '10.000000', settle_type: 2 });

    const voided = await call(mine.token, 'POST', `/bets/${b}/void`, { reason: 'bookmaker decision' });
    expect(voided.status).toBe(200);
    expect(voided.json.bet.status.code).toBe(6);
    expect(voided.json.bet.selections[0].status).toBe(7);
    await w.settlementsFor(b, 1);

    // once settled, neither can happen
    expect((await call(mine.token, 'POST', `/bets/${a}/void`, { reason: 'again' })).status).toBe(409);
    expect((await call(mine.token, 'POST', `/bets/${b}/cancel`, { reason: 'again' })).status).toBe(409);

    const audit = await w.t.deps.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('subject', '=', `bet:${a}`)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'bet.partner_cancel' });
    expect(audit[0]?.actor).toMatch(/^partner:/);
    expect(audit[0]?.details).toMatchObject({
      reason: 'event moved',
      before: { state: 'accepted' },
      after: { state: 'settled' },
    });

    const refunded = await call(mine.token, 'GET', '/bets?status=5');
    expect(refunded.json.items.map((x: { id: string }) => x.id)).toEqual([a]);
    const manual = await call(mine.token, 'GET', '/bets?status=6');
    expect(manual.json.items.map((x: { id: string }) => x.id)).toEqual([b]);
  });

  it('documents every partner REST operation in /openapi.json: operationId, security, errors, examples', async () => {
    const doc = (await w.t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const ops = new Map<
      string,
      { security?: unknown[]; responses: Record<string, unknown>; description?: string }
    >();
    for (const item of Object.values<Record<string, { operationId?: string }>>(doc.paths)) {
      for (const op of Object.values(item)) if (op.operationId) ops.set(op.operationId, op as never);
    }
    const expected = [
      'listBets',
      'getBet',
      'cancelBet',
      'voidBet',
      'getDictionary',
      'getBetReport',
      'getDailyReport',
    ];
    for (const id of expected) {
      const op = ops.get(id);
      expect(op, id).toBeDefined();
      expect(op?.description, id).toEqual(expect.any(String));
      expect(op?.security, id).toEqual([{ bearer: [] }, { session: [] }]);
      expect(JSON.stringify(op?.responses['401']), id).toContain('#/components/schemas/ApiErrorBody');
      expect(JSON.stringify(op?.responses['200']), id).toContain('"example');
    }
    expect(JSON.stringify(ops.get('cancelBet')?.responses['409'])).toContain('ApiErrorBody');
    expect(doc.components.schemas.ApiErrorBody).toBeDefined();
  });
});
