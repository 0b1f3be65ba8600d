import { add, div, formatMoney, mul, parseDecimal, roundDown, sub } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { waitUntil } from '../../testing/scripted-partner.js';

const dec = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });

// The risk engine end to end: the real server and the reference wallet as separate processes, over HTTP.
describe(`risk engine end to end (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;
  const wl = () => p.partner.whiteLabelId;

  const newEvent = () => newSportEvent(p, 1);

  async function published(event: string, odd: string): Promise<string> {
    const r = await p.call('GET', `/trading/sport-events/${event}`);
    return r.json.sport_event.markets['1'].odds[odd].value as string;
  }

  async function player(id: string, deposit = '100000') {
    await p.walletApi.deposit(id, deposit);
    return p.session(id, { sid: id, currency: 'EUR' });
  }

  async function place(token: string, body: Record<string, unknown>) {
    const r = await p.call('POST', '/frame-api/bets', {
      token,
      body: { bet_type: 'single', currency: 'EUR', odds_strategy: 3, ...body },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json;
  }

  const sel = (event: string, odd: string, odds = '1.5') => ({
    sport_event_id: event,
    market_id: '1',
    odd_id: odd,
    odds,
  });

  async function restrictions(
    playerId: string,
    event: string,
    odd: string,
    extra: Record<string, string> = {},
  ) {
    const q = new URLSearchParams({
      player_id: playerId,
      type_code: '0',
      currency_code: 'EUR',
      selection: [event, '1', odd, await published(event, odd)].map(encodeURIComponent).join('/'),
      ...extra,
    });
    const r = await p.call('GET', `/restrictions?${q}`, { token: p.accessToken });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json;
  }

  async function setLimit(liability: string | null) {
    for (const phase of ['prematch', 'live']) {
      const r = await p.call('PUT', '/admin/risk/limits', {
        body: { white_label_id: wl(), market_type_id: '*', phase, liability_eur: liability },
      });
      expect(r.status).toBe(200);
    }
  }

  async function settleEvent(event: string, winner: string) {
    const odds = ['1', '2', '3'].map((id) => ({ id, status: id === winner ? 1 : 2 }));
    const r = await p.call('PATCH', `/trading/sport-events/${event}/markets`, {
      body: { markets: [{ id: '1', odds }] },
    });
    expect(r.status).toBe(200);
  }

  beforeAll(async () => {
    p = await startPlatform({
      env: { PLAYER_RATE_LIMIT: '0', DELAY_INSTABILITY_WINDOW_S: '0', RISK_SETTINGS_CACHE_MS: '0' },
      whiteLabel: { limits: { min_stake: '0.01', max_stake: '100000', max_payout: null } },
    });
    await setLimit('100');
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it('declines max_bet with the exact remaining stake and accepts a bet at that stake; the wallet releases the hold', async () => {
    const e = await newEvent();
    const s = await player('r-max');
    expect((await place(s, { stake: '40', selections: [sel(e, '1')] })).status).toBe(1); // 20 of exposure
    // the remaining 80 at the odds published now (shading may have moved them): 80 / (odds − 1), rounded down
    const odds = dec(await published(e, '1'));
    const expected = formatMoney(roundDown(div(dec('80'), sub(odds, dec('1'))), 6));
    const slip = await restrictions('r-max', e, '1');
    expect(slip.restrictions).toEqual([]);
    expect(slip.max_bet).toEqual({ value: expected, currency_code: 'EUR' });

    const over = await place(s, {
      stake: formatMoney(add(dec(expected), dec('0.000001'))),
      selections: [sel(e, '1', await published(e, '1'))],
    });
    expect(over.status).toBe(2);
    expect(over.restrictions).toEqual([
      { type: 'max_bet', context: { max_bet: expected, sport_event_id: e } },
    ]);
    const at = await place(s, { stake: expected, selections: [sel(e, '1', await published(e, '1'))] });
    expect(at.status).toBe(1);
    const exposure = await p.call('GET', `/admin/risk/exposure?sport_event_id=${e}`);
    expect(exposure.json.items).toEqual([
      expect.objectContaining({ odd_id: '1', exposure_eur: '100.000000', limit_eur: '100.000000' }),
    ]);
    await waitUntil(async () => (await p.walletApi.balance('r-max')).held === '0.000000');
    const left = sub(sub(dec('100000'), dec('40')), dec(expected));
    expect(await p.walletApi.balance('r-max')).toEqual({ available: formatMoney(left), held: '0.000000' });
  });

  it("applies each risk group's stake factor, and declines a blocked player player_limit", async () => {
    const e = await newEvent();
    const maxBets: Record<string, string> = {};
    for (const group of ['default', 'vip', 'restricted']) {
      const put = await p.call('PUT', `/players/g-${group}/risk`, { token: p.accessToken, body: { group } });
      expect(put.status).toBe(200);
      expect(put.json).toMatchObject({ group });
      const slip = await restrictions(`g-${group}`, e, '2');
      expect(slip.restrictions).toEqual([]);
      maxBets[group] = slip.max_bet.value;
    }
    // 100 of liability × the factor, over the win per unit of stake at the published odds
    const winPerUnit = sub(dec(await published(e, '2')), dec('1'));
    const expected = (factor: string) =>
      formatMoney(roundDown(div(mul(dec(factor), dec('100')), winPerUnit), 6));
    expect(maxBets).toEqual({ default: expected('1'), vip: expected('5'), restricted: expected('0.2') });

    const s = await player('r-blocked');
    expect(
      (await p.call('PUT', '/players/r-blocked/risk', { token: p.accessToken, body: { group: 'blocked' } }))
        .status,
    ).toBe(200);
    const bet = await place(s, { stake: '1', selections: [sel(e, '3', '3.5')] });
    expect(bet.status).toBe(2);
    // every failing restriction: the group, and the liability its factor 0 leaves (max_bet 0)
    expect(bet.restrictions.map((r: { type: string }) => r.type).sort()).toEqual(['max_bet', 'player_limit']);
    expect(bet.restrictions.find((r: { type: string }) => r.type === 'player_limit').context).toMatchObject({
      types: ['risk_group'],
    });
    await waitUntil(async () => (await p.walletApi.balance('r-blocked')).held === '0.000000');
    expect((await p.walletApi.balance('r-blocked')).available).toBe('100000.000000');
  });

  it('puts a player in the VIP group by recommended_max_payout on the first request only', async () => {
    const e = await newEvent();
    const vip = await player('r-vip');
    await place(vip, { stake: '1', selections: [sel(e, '1')], recommended_max_payout: '200000' });
    expect((await p.call('GET', '/players/r-vip/risk', { token: p.accessToken })).json).toMatchObject({
      group: 'vip',
      stake_factor: '5.000000',
    });
    const late = await player('r-late');
    await place(late, { stake: '1', selections: [sel(e, '1')] });
    await place(late, { stake: '1', selections: [sel(e, '1')], recommended_max_payout: '200000' });
    expect((await p.call('GET', '/players/r-late/risk', { token: p.accessToken })).json).toMatchObject({
      group: 'default',
    });
  });

  it('holds the spec 03 delay table (0/9 → 9, 6/9 → 3, 9/9 → 0, 12/9 → 0), and waits it out on placement', async () => {
    const e = await newEvent();
    const set = await p.call('PUT', '/admin/risk/delays', {
      body: { level: 'sport_event', key: e, phase: 'prematch', seconds: '9' },
    });
    expect(set.status).toBe(200);
    const now = Date.now();
    const table: Array<[number, string]> = [
      [0, '9'],
      [6, '3'],
      [9, '0'],
      [12, '0'],
    ];
    for (const [client, expected] of table) {
      const createdAt = new Date(now - client * 1000).toISOString();
      const slip = await restrictions('r-delay', e, '1', { created_at: createdAt });
      // the query is answered a moment after createdAt: the remaining delay is the table's, less that moment
      if (expected === '0') expect(slip.bet_delay_s).toBe('0');
      else {
        expect(Number(slip.bet_delay_s)).toBeLessThanOrEqual(Number(expected));
        expect(Number(slip.bet_delay_s)).toBeGreaterThan(Number(expected) - 1);
      }
    }
    const s = await player('r-delay');
    const bet = await place(s, {
      stake: '1',
      selections: [sel(e, '1')],
      client_created_at: new Date(Date.now() - 6000).toISOString(),
    });
    expect(bet.status).toBe(1);
    expect(Date.parse(bet.decided_at) - Date.parse(bet.created_at)).toBeGreaterThanOrEqual(2900);
  }, 60_000);

  it('shades the published odds past the threshold and restores them when the bets settle', async () => {
    const e = await newEvent();
    const s = await player('r-shade');
    expect(await published(e, '2')).toBe('2.500000000000');
    // 60 × 1.5 = 90 of 100: (2.5 − 1) × 0.2 × (0.9 − 0.5) / 0.5 = 0.24 off
    expect((await place(s, { stake: '60', selections: [sel(e, '2', '2.5')] })).status).toBe(1);
    await waitUntil(async () => (await published(e, '2')) === '2.260000000000');
    await settleEvent(e, '1');
    await waitUntil(async () => (await published(e, '2')) === '2.500000000000', 30_000);
    const exposure = await p.call('GET', `/admin/risk/exposure?sport_event_id=${e}`);
    expect(exposure.json.items).toEqual([expect.objectContaining({ odd_id: '2', exposure_eur: '0.000000' })]);
    const recompute = await p.call('POST', '/admin/risk/recompute');
    expect(recompute.json).toMatchObject({ ok: true });
  });
});
