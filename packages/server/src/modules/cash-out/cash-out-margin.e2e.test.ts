import { formatMoney, mul, parseDecimal, type Rational, roundHalfUp, sub } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../../testing/platform.js';
import { runBookie } from '../../testing/process.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { sampleEvent } from '../trading/fixtures.js';

const d = (v: string): Rational => parseDecimal(v, { field: 'x', maxDecimals: 12 });

// The operator's cash-out margin per white label, end to end: the API and `bookie risk cash-out-margin` change the
// offers a running server quotes, without a restart; bad input names the field; every change is audited.
describe(`cash-out margin per white label (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;
  const wl = () => p.partner.whiteLabelId;
  let event: string;
  let bet: { id: string; odds: Rational };

  /** The offer the rule gives for the whole bet (a single of 10): stake × odds × probability × (1 − margin). */
  async function expected(margin: string): Promise<string> {
    const snap = (await p.call('GET', `/trading/sport-events/${event}`)).json.sport_event;
    const prob = d(snap.markets['1'].odds['1'].probability);
    return formatMoney(roundHalfUp(mul(mul(mul(d('10'), bet.odds), prob), sub(d('1'), d(margin))), 3));
  }
  const quote = async () =>
    (await p.call('POST', `/bets/${bet.id}/cash-out-orders/simplified-calculate`, { token: p.accessToken }))
      .json.refund_amount as string;
  const put = (body: unknown) => p.call('PUT', '/admin/risk/cash-out-margins', { body });

  beforeAll(async () => {
    p = await startPlatform({
      env: { CASH_OUT_MARGIN: '0.05', RISK_SETTINGS_CACHE_MS: '0' },
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null } },
    });
    const ev = sampleEvent({ markets: 1 });
    expect((await p.call('POST', '/trading/sport-events', { body: ev })).status).toBe(201);
    event = ev.id as string;
    await p.walletApi.deposit('margin', '100');
    const s = await p.session('margin', { sid: 'margin' });
    await waitUntil(
      async () => (await p.call('GET', `/frame-api/sport-events/${event}`, { token: s })).status === 200,
    );
    const r = await p.call('POST', '/frame-api/bets', {
      token: s,
      body: {
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 3,
        selections: [{ sport_event_id: event, market_id: '1', odd_id: '1', odds: '1.01' }],
      },
    });
    expect(r.json.status).toBe(1);
    bet = { id: r.json.id, odds: d(r.json.selections?.[0]?.odds ?? r.json.odds) };
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it('the API sets, shows and removes a margin; quotes follow at once; bad input names the field; audited', async () => {
    expect((await p.call('GET', '/admin/risk/cash-out-margins')).json).toEqual({
      default_margin: '0.050000',
      margins: [],
    });
    expect(await quote()).toBe(await expected('0.05'));

    const set = await put({ white_label_id: wl(), margin: '0.1' });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({
      default_margin: '0.050000',
      margins: [{ white_label_id: wl(), margin: '0.100000' }],
    });
    expect(await quote()).toBe(await expected('0.1'));
    expect((await put({ white_label_id: wl(), margin: '0' })).status).toBe(200);
    expect(await quote()).toBe(await expected('0'));

    for (const margin of ['1', '1.5', '-0.01', 'abc', '0.0000001', '']) {
      const bad = await put({ white_label_id: wl(), margin });
      expect(bad.status, margin).toBe(400);
      expect(bad.json.error.details.field, margin).toBe('margin');
    }
    const missing = await put({ white_label_id: wl() });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.json)).toContain('margin');
    expect((await put({ white_label_id: 'no-such-wl', margin: '0.02' })).status).toBe(404);
    // the bad ones changed nothing
    expect(await quote()).toBe(await expected('0'));

    const removed = await put({ white_label_id: wl(), margin: null });
    expect(removed.json.margins).toEqual([]);
    expect(await quote()).toBe(await expected('0.05'));

    const audit = await p.call(
      'GET',
      `/admin/audit-log?subject=${encodeURIComponent(`white_label:${wl()}`)}`,
    );
    const changes = (audit.json.items as Array<{ action: string; details: { margin: string | null } }>)
      .filter((i) => i.action === 'risk.cash_out_margin')
      .map((i) => i.details.margin);
    expect(changes).toEqual([null, '0.000000', '0.100000']);
  }, 60_000);

  it('bookie risk cash-out-margin sets and shows it; the server started again quotes with it', async () => {
    let shown: unknown;
    let refused: { code: number | null; stderr: string } | undefined;
    await p.restartBookie('SIGTERM', {}, async () => {
      const cli = (...args: string[]) => runBookie(['risk', 'cash-out-margin', ...args, ...p.dbArgs]);
      const set = await cli('--white-label', wl(), '--margin', '0.2', '--actor', 'cli:test');
      expect(set.stderr).toBe('');
      expect(set.code).toBe(0);
      shown = JSON.parse((await cli()).stdout);
      refused = await cli('--white-label', wl(), '--margin', '1');
    });
    expect(shown).toEqual({
      default_margin: '0.050000',
      margins: [{ white_label_id: wl(), margin: '0.200000' }],
    });
    expect(refused?.code).not.toBe(0);
    expect(refused?.stderr).toContain('margin');
    await waitUntil(
      async () =>
        (await p.call('GET', `/frame-api/sport-events/${event}`, { token: await p.session('v') })).status ===
        200,
    );
    expect(await quote()).toBe(await expected('0.2'));
    const audit = await p.call('GET', '/admin/audit-log?actor=cli:test');
    expect(audit.json.items[0]).toMatchObject({
      action: 'risk.cash_out_margin',
      details: { margin: '0.200000' },
    });
  }, 120_000);
});
