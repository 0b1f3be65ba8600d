import { randomUUID } from 'node:crypto';
import { add, formatMoney, mul, parseDecimal } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSportEvent, startPlatform, type TestPlatform } from '../../testing/platform.js';
import { scriptedPartner, waitUntil } from '../../testing/scripted-partner.js';

const dec = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });

// The risk management mode end to end: the real server as its own process, and a test partner that holds its
// own money and only receives /bet/settle and /bet/unsettle for the bets it reports.
describe(`partner-reported bets (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let p: TestPlatform;
  let partner: Awaited<ReturnType<typeof scriptedPartner>>;
  const events: string[] = [];

  const newEvent = () => newSportEvent(p, 1);

  async function published(event: string, odd: string): Promise<string> {
    const r = await p.call('GET', `/trading/sport-events/${event}`);
    return r.json.sport_event.markets['1'].odds[odd].value as string;
  }

  /** POST /bets as the partner; the raw text too (repeats answer the same bytes). */
  async function report(body: Record<string, unknown>) {
    const res = await fetch(`${p.bookie.url}/bets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) };
  }

  const bet = (over: Record<string, unknown>) => ({
    bet_id: `slip-${randomUUID()}`,
    player_id: 'mts-player',
    type: { code: 0, system_sizes: [1] },
    stake: { value: '10', currency_code: 'EUR' },
    selections: [],
    odds_strategy: 3,
    created_at: new Date().toISOString(),
    ...over,
  });
  const sel = (event: string, odd: string, value = '1.5') => ({
    sport_event_id: event,
    market_id: '1',
    odd_id: odd,
    value,
  });

  async function settleEvent(event: string, winner: string) {
    const odds = ['1', '2', '3'].map((id) => ({ id, status: id === winner ? 1 : 2 }));
    const r = await p.call('PATCH', `/trading/sport-events/${event}/markets`, {
      body: { markets: [{ id: '1', odds }] },
    });
    expect(r.status).toBe(200);
  }

  const callbacksOf = (betId: string) =>
    partner.received.filter((c) => c.json.bet_id === betId).map((c) => ({ path: c.path, json: c.json }));

  beforeAll(async () => {
    p = await startPlatform({
      env: { PLAYER_RATE_LIMIT: '0', DELAY_INSTABILITY_WINDOW_S: '0', RISK_SETTINGS_CACHE_MS: '0' },
      whiteLabel: { limits: { min_stake: '1', max_stake: '1000', max_payout: null } },
    });
    partner = await scriptedPartner();
    const r = await p.call('PATCH', `/admin/white-labels/${p.partner.whiteLabelId}`, {
      body: { callback_url: partner.url },
    });
    expect(r.status).toBe(200);
    for (let i = 0; i < 4; i++) events.push(await newEvent());
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    await partner?.close();
  });

  it('accepts and declines a single, an express and a system; the answer is the bet with the accepted odds', async () => {
    const [a, b, c] = events as [string, string, string];
    const oa = await published(a, '1');
    const ob = await published(b, '1');
    const oc = await published(c, '1');
    const single = await report(bet({ selections: [sel(a, '1', '1.01')] }));
    expect(single.status).toBe(201);
    expect(single.json.restrictions).toEqual([]);
    expect(single.json.bet).toMatchObject({ source: 'mts', status: { code: 1 }, type: { code: 0 } });
    // strategy 3: accepted at the odds of the moment, which the answer shows per selection
    expect(single.json.bet.selections[0].value).toBe(formatMoney(dec(oa)));
    expect(single.json.bet.selections[0].requested_value).toBe('1.010000');
    // the answer is the bet as stored: GET /bets/{bet_id} reads the same
    const stored = await p.call('GET', `/bets/${encodeURIComponent(single.json.bet.id)}`, {
      token: p.accessToken,
    });
    expect(stored.json).toEqual(single.json.bet);

    const express = await report(
      bet({ type: { code: 1, system_sizes: [2] }, selections: [sel(a, '1', oa), sel(b, '1', ob)] }),
    );
    expect(express.json.bet.status.code).toBe(1);
    expect(express.json.bet.total_odds).toBe(formatMoney(mul(dec(oa), dec(ob))));

    const system = await report(
      bet({
        type: { code: 2, system_sizes: [2] },
        selections: [sel(a, '1', oa), sel(b, '1', ob), sel(c, '1', oc)],
      }),
    );
    expect(system.json.bet.status.code).toBe(1);

    // declines: over the white label's max stake (each type), and an odd that does not exist
    for (const [type, selections] of [
      [{ code: 0, system_sizes: [1] }, [sel(a, '1', oa)]],
      [{ code: 1, system_sizes: [2] }, [sel(a, '1', oa), sel(b, '1', ob)]],
      [{ code: 2, system_sizes: [2] }, [sel(a, '1', oa), sel(b, '1', ob), sel(c, '1', oc)]],
    ] as const) {
      const over = await report(bet({ type, selections, stake: { value: '1000.01', currency_code: 'EUR' } }));
      expect(over.status).toBe(201);
      expect(over.json.bet.status.code).toBe(2);
      expect(over.json.restrictions.map((r: { type: string }) => r.type)).toContain('max_bet');
    }
    const missing = await report(
      bet({ selections: [sel(a, '1'), sel(a, '99')], type: { code: 1, system_sizes: [2] } }),
    );
    expect(missing.json.bet.status.code).toBe(2);
    expect(missing.json.restrictions).toContainEqual({
      type: 'odd_existence',
      context: expect.objectContaining({ sport_event_id: a, market_id: '1', odd_id: '99' }),
    });
    // GET /bets/{bet_id} reads a reported bet under the partner's id, accepted or declined
    const got = await p.call('GET', `/bets/${encodeURIComponent(missing.json.bet.id)}`, {
      token: p.accessToken,
    });
    expect(got.status).toBe(200);
    expect(got.json).toEqual(missing.json.bet);
    // a type that does not fit the selections is declined bet_type (advice advises the same)
    const bad = await report(
      bet({ type: { code: 1, system_sizes: [3] }, selections: [sel(a, '1'), sel(b, '1')] }),
    );
    expect(bad.status).toBe(201);
    expect(bad.json.bet.status).toEqual({ code: 2, reason: 'bet_type' });
    expect(bad.json.restrictions).toEqual([
      {
        type: 'bet_type',
        context: expect.objectContaining({ reason: 'system_sizes_mismatch', expected_system_sizes: [2] }),
      },
    ]);
    // a malformed type is a 400 naming the field
    const malformed = await report(bet({ type: { code: 4, system_sizes: [1] }, selections: [sel(a, '1')] }));
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.details.field).toBe('body.type.code');
  });

  it('answers a repeat with the same bytes, and another body under the same bet_id with 409', async () => {
    const [a] = events as [string];
    const body = bet({ selections: [sel(a, '2')] });
    const first = await report(body);
    expect(first.status).toBe(201);
    const again = await Promise.all([report(body), report(body)]);
    for (const r of again) {
      expect(r.status).toBe(201);
      expect(r.text).toBe(first.text);
    }
    const other = await report({ ...body, stake: { value: '11', currency_code: 'EUR' } });
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe('idempotency_conflict');
  });

  it('waits out the remaining bet delay: the configured delay less what the client already waited', async () => {
    const [, , , d] = events as [string, string, string, string];
    const set = await p.call('PUT', '/admin/risk/delays', {
      body: { level: 'sport_event', key: d, phase: 'prematch', seconds: '1.5' },
    });
    expect(set.status).toBe(200);
    const timed = async (createdAgoMs: number) => {
      const t0 = Date.now();
      const r = await report(
        bet({ selections: [sel(d, '1')], created_at: new Date(Date.now() - createdAgoMs).toISOString() }),
      );
      expect(r.json.bet.status.code).toBe(1);
      return Date.now() - t0;
    };
    // no client delay: the whole 1.5 s; 1 s already waited by the client: about 0.5 s; 2 s (more than configured): none
    expect(await timed(0)).toBeGreaterThanOrEqual(1500);
    const half = await timed(1000);
    expect(half).toBeGreaterThanOrEqual(450);
    const none = await timed(2000);
    expect(none).toBeLessThan(half + 1000);
    await p.call('PUT', '/admin/risk/delays', {
      body: { level: 'sport_event', key: d, phase: 'prematch', seconds: null },
    });
  });

  it('settles a mixed combo once the feed and the partner resulted it, and resettles on a changed foreign status', async () => {
    const e = await newEvent();
    const odds = await published(e, '1');
    const r = await report(
      bet({
        type: { code: 1, system_sizes: [2] },
        selections: [sel(e, '1', odds)],
        foreign_selections: [{ id: 'ext-1', value: '2', sport_event_title: 'Local derby', odd_name: 'Home' }],
      }),
    );
    expect(r.json.bet.status.code).toBe(1);
    expect(r.json.bet.total_odds).toBe(formatMoney(mul(dec(odds), dec('2'))));
    expect(r.json.bet.foreign_selections).toEqual([
      { id: 'ext-1', value: '2.000000', sport_event_title: 'Local derby', odd_name: 'Home', status: 0 },
    ]);
    const id = r.json.bet.id as string;
    // the answer is the bet as stored, its foreign selection included
    const stored = await p.call('GET', `/bets/${encodeURIComponent(id)}`, { token: p.accessToken });
    expect(stored.json).toEqual(r.json.bet);
    // the foreign leg takes its share of the exposure, and recompute agrees with what was written
    const recompute = await p.call('POST', '/admin/risk/recompute');
    expect(recompute.json.ok, JSON.stringify(recompute.json)).toBe(true);
    const path = `/bets/${encodeURIComponent(id)}`;
    // an unknown foreign id is a 400 naming it
    const unknown = await p.call('PATCH', path, {
      token: p.accessToken,
      body: { foreign_selections: [{ id: 'ext-x', status: 1 }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.details.field).toBe('foreign_selections[0].id');

    // the partner results the foreign leg first: nothing settles while the platform leg is open
    const first = await p.call('PATCH', path, {
      token: p.accessToken,
      body: { foreign_selections: [{ id: 'ext-1', status: 1 }] },
    });
    expect(first.status).toBe(200);
    expect(first.json.transition).toBe('none');
    await settleEvent(e, '1');
    await waitUntil(() => callbacksOf(id).length === 1);
    const won = formatMoney(mul(dec('10'), mul(dec(odds), dec('2'))));
    expect(callbacksOf(id)[0]).toMatchObject({
      path: '/bet/settle',
      json: { settle_amount: won, settle_type: 1 },
    });

    // the partner changes the foreign result: unsettle the win, settle the loss, in that order
    const lost = await p.call('PATCH', path, {
      token: p.accessToken,
      body: { foreign_selections: [{ id: 'ext-1', status: 2, status_reason: 'corrected' }] },
    });
    expect(lost.json.transition).toBe('resettled');
    await waitUntil(() => callbacksOf(id).length === 3);
    expect(callbacksOf(id).map((c) => [c.path, c.json.settle_amount ?? c.json.unsettle_amount])).toEqual([
      ['/bet/settle', won],
      ['/bet/unsettle', won],
      ['/bet/settle', '0.000000'],
    ]);
    const got = await p.call('GET', path, { token: p.accessToken });
    expect(got.json.status.code).toBe(3);
    expect(got.json.foreign_selections[0]).toMatchObject({
      id: 'ext-1',
      status: 2,
      status_reason: 'corrected',
    });
    // a settled bet cannot be withdrawn
    const del = await p.call('DELETE', '/bets', { token: p.accessToken, body: { bet_id: id } });
    expect(del.status).toBe(409);
  });

  it('settles on the stake left after accepted foreign cash-outs; a full cash-out ends the bet cashed out', async () => {
    const e = await newEvent();
    const odds = await published(e, '2');
    const partial = await report(bet({ selections: [sel(e, '2', odds)] }));
    const id = partial.json.bet.id as string;
    const order = (oid: string, code: string, amount: string) => ({
      id: oid,
      amount,
      refund_amount: '5',
      status: { code },
      created_at: new Date().toISOString(),
    });
    const path = `/bets/${encodeURIComponent(id)}`;
    const pending = await p.call('PATCH', path, {
      token: p.accessToken,
      body: { foreign_cash_out_orders: [order('co-1', 'pending', '4')] },
    });
    expect(pending.status).toBe(200);
    const accepted = await p.call('PATCH', path, {
      token: p.accessToken,
      body: { foreign_cash_out_orders: [order('co-1', 'accepted', '4')] },
    });
    expect(accepted.json.bet.foreign_cash_out_orders).toEqual([
      expect.objectContaining({ id: 'co-1', amount: '4.000000', status: { code: 'accepted', reason: null } }),
    ]);
    // a decided order cannot change; the accepted amounts cannot pass the stake
    const changed = await p.call('PATCH', path, {
      token: p.accessToken,
      body: { foreign_cash_out_orders: [order('co-1', 'declined', '4')] },
    });
    expect(changed.status).toBe(409);
    const tooMuch = await p.call('PATCH', path, {
      token: p.accessToken,
      body: { foreign_cash_out_orders: [order('co-2', 'accepted', '6.000001')] },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json.error.details.field).toBe('foreign_cash_out_orders');
    await settleEvent(e, '2');
    await waitUntil(() => callbacksOf(id).length === 1);
    expect(callbacksOf(id)[0]?.json.settle_amount).toBe(formatMoney(mul(dec('6'), dec(odds))));

    const e2 = await newEvent();
    const full = await report(bet({ selections: [sel(e2, '3', await published(e2, '3'))] }));
    expect(full.json.bet.status.code).toBe(1);
    const fullPath = `/bets/${encodeURIComponent(full.json.bet.id)}`;
    const out = await p.call('PATCH', fullPath, {
      token: p.accessToken,
      body: { foreign_cash_out_orders: [order('co-3', 'accepted', '10')] },
    });
    expect(out.json.transition).toBe('cashed_out');
    expect(out.json.bet.status.code).toBe(7);
  });

  it('DELETE withdraws an accepted bet: declined by the partner, exposure released, nothing called back', async () => {
    const e = await newEvent();
    const exposure = async () =>
      (await p.call('GET', `/admin/risk/exposure?sport_event_id=${e}`)).json.items.map(
        (i: { exposure_eur: string }) => i.exposure_eur,
      );
    const r = await report(bet({ selections: [sel(e, '1', await published(e, '1'))] }));
    expect(r.json.bet.status.code).toBe(1);
    const kept = await report(bet({ selections: [sel(e, '2', await published(e, '2'))] }));
    expect(kept.json.bet.status.code).toBe(1);
    expect((await exposure()).some((x: string) => x !== '0.000000')).toBe(true);
    const del = await p.call('DELETE', '/bets', {
      token: p.accessToken,
      body: { bet_id: r.json.bet.id, reason: 'payment failed' },
    });
    expect(del.status).toBe(200);
    expect(del.json.status).toEqual({ code: 2, reason: 'partner_declined' });
    const items = (await p.call('GET', `/admin/risk/exposure?sport_event_id=${e}`)).json.items;
    expect(items.find((i: { odd_id: string }) => i.odd_id === '1')?.exposure_eur ?? '0.000000').toBe(
      '0.000000',
    );
    const again = await p.call('DELETE', '/bets', { token: p.accessToken, body: { bet_id: r.json.bet.id } });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(del.json);
    expect((await p.call('DELETE', '/bets', { token: p.accessToken, body: { bet_id: 'nope' } })).status).toBe(
      404,
    );
    // the partner's cancel before settlement takes its own id too: the stake back in /bet/settle
    const cancelled = await report(bet({ selections: [sel(e, '3', await published(e, '3'))] }));
    const cancel = await p.call('POST', `/bets/${encodeURIComponent(cancelled.json.bet.id)}/cancel`, {
      token: p.accessToken,
      body: { reason: 'event abandoned' },
    });
    expect(cancel.status).toBe(200);
    expect(cancel.json.bet.status.code).toBe(5);
    await waitUntil(() => callbacksOf(cancelled.json.bet.id).length === 1);
    expect(callbacksOf(cancelled.json.bet.id)[0]).toMatchObject({
      path: '/bet/settle',
      json: { settle_amount: '10.000000', settle_type: 2 },
    });
    await settleEvent(e, '1');
    // the settlement of the event settles the other bet and passes the withdrawn one by: no callback for it
    await waitUntil(() => callbacksOf(kept.json.bet.id).length === 1);
    expect(callbacksOf(r.json.bet.id)).toEqual([]);
  });

  it('the reference wallet credits the settle of a reported bet it never held and debits its unsettle', async () => {
    const player = `mts-wallet-${randomUUID()}`;
    await p.walletApi.deposit(player, '100', 'EUR');
    // from here the callbacks go to the reference wallet; one the scripted partner still gets (Bookie reads the
    // callback URL through a short cache) is refused there, so Bookie sends it again, to the wallet
    partner.setAnswer((r) => ({ status: String(r.json.bet_id).startsWith('wallet-') ? 503 : 204 }));
    const wl = `/admin/white-labels/${p.partner.whiteLabelId}`;
    expect((await p.call('PATCH', wl, { body: { callback_url: p.wallet.url } })).status).toBe(200);
    try {
      const e = await newEvent();
      const odds = await published(e, '1');
      const r = await report(
        bet({
          bet_id: `wallet-${randomUUID()}`,
          player_id: player,
          type: { code: 1, system_sizes: [2] },
          selections: [sel(e, '1', odds)],
          foreign_selections: [{ id: 'ext-w', value: '2' }],
          // the callbacks' bodies name no currency: the wallet books the bet in the one its Foreign-Params name
          foreign_params: { currency: 'EUR' },
        }),
      );
      expect(r.json.bet.status.code).toBe(1);
      const id = r.json.bet.id as string;
      const path = `/bets/${encodeURIComponent(id)}`;
      const result = async (status: number) =>
        expect(
          (
            await p.call('PATCH', path, {
              token: p.accessToken,
              body: { foreign_selections: [{ id: 'ext-w', status }] },
            })
          ).status,
        ).toBe(200);
      const entries = async () =>
        (await p.walletApi.ledger(player)).entries
          .filter((x) => x.bet_id === id)
          .map((x) => `${x.kind} ${x.reason} ${x.amount}`);
      const ten = dec('10');
      const won = formatMoney(mul(ten, mul(dec(odds), dec('2'))));
      // the partner took the stake itself: nothing is held, the win is credited
      await result(1);
      await settleEvent(e, '1');
      await waitUntil(async () => (await entries()).length === 1);
      expect(await entries()).toEqual([`credit settle ${won}`]);
      expect(await p.walletApi.balance(player, 'EUR')).toEqual({
        available: formatMoney(add(dec('100'), dec(won))),
        held: '0.000000',
      });
      // the foreign leg corrected to refunded (5, factor 1): the win is taken back, the platform leg's payout credited
      await result(5);
      const refund = formatMoney(mul(ten, dec(odds)));
      await waitUntil(async () => (await entries()).length === 3);
      expect(await entries()).toEqual([
        `credit settle ${won}`,
        `debit unsettle ${won}`,
        `credit settle ${refund}`,
      ]);
      expect(await p.walletApi.balance(player, 'EUR')).toEqual({
        available: formatMoney(add(dec('100'), dec(refund))),
        held: '0.000000',
      });
      expect((await p.walletApi.checkLedger(player)).ok).toBe(true);
    } finally {
      await p.call('PATCH', wl, { body: { callback_url: partner.url } });
      partner.setAnswer(() => ({ status: 204 }));
    }
  });
});
