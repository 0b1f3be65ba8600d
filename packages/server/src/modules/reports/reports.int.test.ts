import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';

describe(`partner REST reports: bets and daily, JSON and CSV (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;
  let mine: { token: string; session: string };
  let other: { token: string };
  const from = new Date(Date.now() - 3_600_000).toISOString();
  const to = new Date(Date.now() + 3_600_000).toISOString();
  const window = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
  let won: string;
  let open: string;

  beforeAll(async () => {
    w = await settlementWorld();
    mine = await w.newPlayer('p1');
    other = await w.newPlayer('p1');
    const e = await w.newEvent(2);
    won = (await w.place(mine.session, { selections: [w.sel(e, '1', '1')], stake: '10' })).id;
    open = (await w.place(mine.session, { selections: [w.sel(e, '2', '2')], stake: '2.5' })).id;
    await w.result(e, [{ id: '1', odds: [{ id: '1', status: 1 }] }]);
    await w.settlementsFor(won, 1);
  });
  afterAll(async () => {
    await w?.close();
  });

  async function get(token: string, url: string) {
    const res = await w.t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    return {
      status: res.statusCode,
      type: String(res.headers['content-type']),
      disposition: res.headers['content-disposition'],
      text: res.body,
      json: String(res.headers['content-type']).includes('json') ? res.json() : undefined,
    };
  }

  it('lists the bets placed in the window, oldest first, in JSON and CSV', async () => {
    const r = await get(mine.token, `/reports/bets?${window}`);
    expect(r.status).toBe(200);
    expect(r.json.items.map((b: { bet_id: string }) => b.bet_id)).toEqual([won, open]);
    expect(r.json.items[0]).toMatchObject({
      status: 3,
      stake: '10.000000',
      settle_amount: '15.000000',
      type: 0,
    });
    expect(r.json.items[1]).toMatchObject({ status: 1, stake: '2.500000', settle_amount: null });

    const csv = await get(mine.token, `/reports/bets?${window}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.type).toMatch(/^text\/csv/);
    expect(csv.disposition).toContain('attachment');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'bet_id,player_id,created_at,status,type,currency,stake,total_odds,settle_amount,settled_at',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${won},p1,`);
    expect(lines[1]).toContain(',3,0,EUR,10.000000,1.500000,15.000000,');

    const theirs = await get(other.token, `/reports/bets?${window}`);
    expect(theirs.json.items).toEqual([]);
  });

  it('sums each day and currency exactly: stakes, settle amounts and GGR of the settled bets', async () => {
    const r = await get(mine.token, `/reports/daily?${window}`);
    expect(r.status).toBe(200);
    expect(r.json.items).toHaveLength(1);
    expect(r.json.items[0]).toMatchObject({
      currency: 'EUR',
      bets_placed: 2,
      bets_accepted: 2,
      bets_settled: 1,
      stake: '12.500000',
      settled_stake: '10.000000',
      settle_amount: '15.000000',
      ggr: '-5.000000',
    });
    const csv = await get(mine.token, `/reports/daily?${window}&format=csv`);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'day,currency,bets_placed,bets_accepted,bets_settled,stake,settled_stake,settle_amount,ggr,advisory_bets,advisory_stake',
    );
    expect(lines[1]).toMatch(
      /^\d{4}-\d{2}-\d{2},EUR,2,2,1,12\.500000,10\.000000,15\.000000,-5\.000000,0,0\.000000$/,
    );
    expect((await get(other.token, `/reports/daily?${window}`)).json.items).toEqual([]);
  });

  it('counts advisory bets apart, per day of their first report and currency: all of them, the stakes of those not declined', async () => {
    const e = await w.newEvent(1);
    const call = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
      const res = await w.t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${mine.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    const slip = (id: string, value: string, currency: string) => ({
      bet_id: id,
      site_id: 'acme.example',
      type: { code: 0, system_sizes: [1] },
      stake: { value, currency_code: currency },
      selections: [{ sport_event_id: e, market_id: '1', odd_id: '1', value: '1.5' }],
      player_id: 'adv',
      created_at: new Date().toISOString(),
    });
    await call('POST', '/bets/advisory', slip('adv-1', '4', 'EUR'));
    await call('POST', '/bets/advisory', slip('adv-2', '6', 'EUR'));
    await call('POST', '/bets/advisory', slip('adv-3', '3', 'USD'));
    // the partner declined the second one on its side
    await call('PUT', '/bets/advisory/adv-2', {
      selections: slip('adv-2', '6', 'EUR').selections,
      status: { code: 2, reason: null },
    });

    const r = await get(mine.token, `/reports/daily?${window}`);
    const items = r.json.items as Array<Record<string, unknown>>;
    expect(items.find((i) => i.currency === 'EUR')).toMatchObject({
      bets_placed: 2,
      stake: '12.500000',
      ggr: '-5.000000',
      advisory_bets: 2,
      advisory_stake: '4.000000',
    });
    // a day and currency with advisory bets only has its row
    expect(items.find((i) => i.currency === 'USD')).toMatchObject({
      bets_placed: 0,
      stake: '0.000000',
      ggr: '0.000000',
      advisory_bets: 1,
      advisory_stake: '3.000000',
    });
    const csv = await get(mine.token, `/reports/daily?${window}&format=csv`);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'day,currency,bets_placed,bets_accepted,bets_settled,stake,settled_stake,settle_amount,ggr,advisory_bets,advisory_stake',
    );
    expect(lines[1]).toMatch(/,EUR,2,2,1,12\.500000,10\.000000,15\.000000,-5\.000000,2,4\.000000$/);
  });

  it('refuses a bad window or format naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['/reports/bets', 'querystring.from'],
      [`/reports/bets?from=${encodeURIComponent(from)}`, 'querystring.to'],
      [`/reports/daily?${window}&format=xml`, 'querystring.format'],
      [`/reports/daily?from=${encodeURIComponent(to)}&to=${encodeURIComponent(from)}`, 'querystring.to'],
      [`/reports/bets?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z`, 'querystring.to'],
    ];
    for (const [url, field] of cases) {
      const r = await get(mine.token, url);
      expect(r.status, url).toBe(400);
      expect(r.json.error.details.field, url).toBe(field);
    }
    expect((await w.t.app.inject({ method: 'GET', url: `/reports/daily?${window}` })).statusCode).toBe(401);
  });
});
