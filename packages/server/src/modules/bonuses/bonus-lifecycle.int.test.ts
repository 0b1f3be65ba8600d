import type { BetView, InsuranceView } from '@bookie/contracts';
import { isCallbackBody } from '@bookie/contracts';
import { startTestWallet, type TestWallet } from '@bookie/wallet/testing/in-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { proxyWithout } from '../../testing/unsupported-paths-proxy.js';
import { recoverPlacements } from '../placement/recover-placements.js';
import { type SettlementWorld, settlementWorld } from '../settlement/settlement.testing.js';

/**
 * Every edge of the freebet, insurance and boost state machines (spec 01) through the real flow: the frame
 * API places bets, the trading API results markets, the settlement consumer settles, the dispatcher calls the
 * reference wallet, and the wallet's balances are checked at each step.
 */
describe(`bonuses through the life of a bet, with the reference wallet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let wallet: TestWallet;
  let w: SettlementWorld;

  beforeAll(async () => {
    wallet = await startTestWallet();
    w = await settlementWorld({ callbackUrl: wallet.url });
  });
  afterAll(async () => {
    await w?.close();
    await wallet?.close();
  });

  /** A player of a new white label with `deposit` EUR in the wallet, and the partner's REST token. */
  async function player(id: string, deposit = '100', wl: Record<string, unknown> = {}) {
    const p = await w.newPlayer(id, wl);
    if (deposit !== '0') await wallet.api.deposit(id, deposit);
    const rest = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await w.t.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${p.token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      return { status: res.statusCode, json: res.json() };
    };
    return { ...p, id, rest };
  }
  type Player = Awaited<ReturnType<typeof player>>;

  async function place(session: string, body: Record<string, unknown>): Promise<BetView> {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/frame-api/bets',
      headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 3,
        ...body,
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as BetView;
  }

  /** A selection: market `m`, odd `o` of an event (odds "1" 1.5, "2" 2.5, "3" 3.5). */
  const sel = (event: string, m = '1', o = '2', odds = '2.5') => ({
    sport_event_id: event,
    market_id: m,
    odd_id: o,
    odds,
  });

  /** Waits until every callback of the bet was delivered (the wallet applied it). */
  async function delivered(betId: string, atLeast = 1) {
    await waitUntil(async () => {
      const rows = await w.t.deps.database.db
        .selectFrom('callback_delivery')
        .select('status')
        .where('bet_id', '=', betId)
        .execute();
      return rows.length >= atLeast && rows.every((r) => r.status !== 'pending');
    });
  }

  /** Waits until every callback to a white label was delivered. */
  async function quiet(whiteLabelId: string) {
    await waitUntil(async () => {
      const r = await w.t.deps.database.db
        .selectFrom('callback_delivery')
        .select('id')
        .where('white_label_id', '=', whiteLabelId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return r === undefined;
    });
  }

  /** Waits for the first `/bet/settle` of a bet (enqueued) and returns its body. */
  async function settleOf(betId: string) {
    let found: { path: string; json: Record<string, unknown> } | undefined;
    await waitUntil(async () => {
      found = (await callbacksOf(betId)).find((c) => c.path === '/bet/settle');
      return found !== undefined;
    });
    return found as { path: string; json: Record<string, unknown> };
  }

  /** The callbacks enqueued for a bet, in order: path and parsed body. */
  async function callbacksOf(betId: string) {
    const rows = await w.t.deps.database.db
      .selectFrom('callback_delivery')
      .select(['path', 'body'])
      .where('bet_id', '=', betId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ path: r.path, json: JSON.parse(r.body) as Record<string, unknown> }));
  }

  const balance = (id: string) => wallet.api.balance(id);
  const result = (event: string, odd: string, status: number, m = '1') =>
    w.result(event, [{ id: m, odds: [{ id: odd, status }] }]);

  const single = (data: Record<string, unknown> = {}) => [
    { type: 'bet_details', data: { bet_details: [{ type: 'single', data }] } },
  ];

  async function freebet(p: Player, over: Record<string, unknown> = {}) {
    const r = await p.rest('POST', '/freebet/create', {
      player_id: p.id,
      currency_code: 'EUR',
      amount: '10',
      conditions: single({ odds_coefficient: { min: '1.2' }, sport: ['football'] }),
      ...over,
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return r.json.id as string;
  }

  async function insurance(p: Player, over: Record<string, unknown> = {}) {
    const r = await p.rest('POST', '/insurance/create', {
      player_id: p.id,
      currency_code: 'EUR',
      type: 'percent',
      percent: '50',
      max_amount: '4',
      strategies: { max_odds_count_lose: 1 },
      ...over,
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return r.json.id as string;
  }

  describe('freebet: available → reserved → used, or back to available', () => {
    it('win: no cash held at placement, credited payout − freebet amount (D18), then used', async () => {
      const p = await player('fb-win', '20');
      const e = await w.newEvent();
      const fb = await freebet(p);
      const bet = await place(p.session, { selections: [sel(e)], freebet_id: fb });
      expect(bet).toMatchObject({ status: 1, freebet_id: fb });
      expect((await p.rest('GET', `/freebet/${fb}`)).json).toMatchObject({
        status: 'reserved',
        used_on_bet_id: bet.id,
        used_at: null,
      });
      await delivered(bet.id, 2);
      const [placeCb, acceptCb] = await callbacksOf(bet.id);
      expect(placeCb).toMatchObject({
        path: '/bet/place',
        json: { bet_freebet_id: fb, bet_stake: '10.000000' },
      });
      expect(acceptCb).toMatchObject({ path: '/bet/accept', json: { bet_freebet_id: fb } });
      expect(await balance(p.id)).toEqual({ available: '20.000000', held: '0.000000' });

      await result(e, '2', 1);
      const settle = await settleOf(bet.id);
      // payout 10 × 2.5 = 25, credit 25 − 10 = 15; settle_type compares 25 with the freebet amount (D3)
      expect(settle.json).toMatchObject({ settle_amount: '15.000000', settle_type: 1 });
      const used = (await p.rest('GET', `/freebet/${fb}`)).json;
      expect(used).toMatchObject({ status: 'used', used_on_bet_id: bet.id });
      expect(used.used_at).not.toBeNull();
      await delivered(bet.id, 3);
      expect(await balance(p.id)).toEqual({ available: '35.000000', held: '0.000000' });
      // a used freebet cannot be placed again, changed or cancelled
      const again = await place(p.session, { selections: [sel(e, '2')], freebet_id: fb });
      expect(again.restrictions).toEqual([
        { type: 'freebet_status', context: { freebet_id: fb, status: 'used', sport_event_id: e } },
      ]);
      expect((await p.rest('POST', '/freebet/cancel', { id: fb })).status).toBe(409);
      expect((await p.rest('POST', '/freebet/update', { id: fb, amount: '1' })).status).toBe(409);
    });

    it('loss: used, balance unchanged', async () => {
      const p = await player('fb-loss', '20');
      const e = await w.newEvent();
      const fb = await freebet(p);
      const bet = await place(p.session, { selections: [sel(e)], freebet_id: fb });
      await result(e, '2', 2);
      const settle = await settleOf(bet.id);
      expect(settle.json).toMatchObject({ settle_amount: '0.000000', settle_type: 3 });
      expect((await p.rest('GET', `/freebet/${fb}`)).json.status).toBe('used');
      await delivered(bet.id, 3);
      expect(await balance(p.id)).toEqual({ available: '20.000000', held: '0.000000' });
    });

    it('void (refunded): used and not available again; nothing credited, the stake is never returned', async () => {
      const p = await player('fb-void', '20');
      const e = await w.newEvent();
      const fb = await freebet(p);
      const bet = await place(p.session, { selections: [sel(e)], freebet_id: fb });
      await result(e, '2', 5);
      const settle = await settleOf(bet.id);
      expect(settle.json).toMatchObject({ settle_amount: '0.000000', settle_type: 2 });
      expect((await p.rest('GET', `/freebet/${fb}`)).json.status).toBe('used');
      await delivered(bet.id, 3);
      expect(await balance(p.id)).toEqual({ available: '20.000000', held: '0.000000' });
    });

    it('decline (a failing condition): back to available, balance unchanged', async () => {
      const p = await player('fb-decl', '20');
      const e = await w.newEvent();
      const fb = await freebet(p, { conditions: single({ sport: ['tennis'] }) });
      const bet = await place(p.session, { selections: [sel(e)], freebet_id: fb });
      expect(bet.status).toBe(2);
      expect(bet.restrictions).toEqual([
        {
          type: 'freebet_not_applicable',
          context: { freebet_id: fb, condition: 'sport', sport_event_id: e },
        },
      ]);
      expect((await p.rest('GET', `/freebet/${fb}`)).json).toMatchObject({
        status: 'available',
        used_on_bet_id: null,
      });
      await delivered(bet.id, 2);
      expect((await callbacksOf(bet.id)).map((c) => c.path)).toEqual(['/bet/place', '/bet/decline']);
      expect(await balance(p.id)).toEqual({ available: '20.000000', held: '0.000000' });
    });

    it('force decline (the hold never answered): back to available', async () => {
      const p = await player('fb-force', '20');
      const e = await w.newEvent();
      const fb = await freebet(p);
      await wallet.api.setFaults({ error500Rate: 1 });
      let bet: BetView;
      try {
        bet = await place(p.session, { selections: [sel(e)], freebet_id: fb });
      } finally {
        await wallet.api.setFaults({ error500Rate: 0 });
      }
      expect(bet.status).toBe(11);
      expect((await p.rest('GET', `/freebet/${fb}`)).json.status).toBe('available');
      await delivered(bet.id, 2);
      expect(await balance(p.id)).toEqual({ available: '20.000000', held: '0.000000' });
    });

    it('Place Error and an interrupted placement (recovery): back to available', async () => {
      // a partner that refuses the hold, and one that never answers in time (scripted: the wallet holds nothing
      // for a freebet, so it never refuses one)
      w.partner.setAnswer((r) =>
        r.path === '/bet/place' && r.json.bet_player_id === 'fb-refused'
          ? { status: 400, body: { error: { code: 'player_limit_crossed', data: { types: ['daily'] } } } }
          : r.path === '/bet/place' && r.json.bet_player_id === 'fb-stuck'
            ? { status: 204, delayMs: 4000 }
            : { status: 204 },
      );
      try {
        const e = await w.newEvent();
        const refused = await player('fb-refused', '0', { callback_url: w.partner.url });
        const fb1 = await freebet(refused);
        const r1 = await place(refused.session, { selections: [sel(e)], freebet_id: fb1 });
        expect(r1).toMatchObject({ status: 10, restrictions: [{ type: 'player_limit' }] });
        expect((await refused.rest('GET', `/freebet/${fb1}`)).json.status).toBe('available');

        const stuck = await player('fb-stuck', '0', { callback_url: w.partner.url });
        const fb2 = await freebet(stuck);
        const pending = place(stuck.session, { selections: [sel(e)], freebet_id: fb2 });
        await waitUntil(() => w.partner.at('/bet/place').some((c) => c.json.bet_player_id === 'fb-stuck'));
        expect((await stuck.rest('GET', `/freebet/${fb2}`)).json.status).toBe('reserved');
        const betId = w.partner.at('/bet/place').find((c) => c.json.bet_player_id === 'fb-stuck')!.json
          .bet_id as string;
        await w.t.deps.database.db
          .updateTable('bet')
          .set({ placement_deadline: new Date(Date.now() - 1000) })
          .where('id', '=', betId)
          .execute();
        expect(await recoverPlacements(w.t.deps.database)).toEqual([betId]);
        expect((await stuck.rest('GET', `/freebet/${fb2}`)).json).toMatchObject({
          status: 'available',
          used_on_bet_id: null,
        });
        expect((await pending).status).toBe(11);
      } finally {
        w.partner.setAnswer(() => ({ status: 204 }));
      }
    }, 30_000);

    it('declines freebet_status, freebet_amount and another currency (freebet_not_applicable)', async () => {
      const p = await player('fb-rules', '20', { currencies: ['EUR', 'USD'] });
      const other = await player('fb-other', '0');
      const e = await w.newEvent();
      const fb = await freebet(p);
      const usd = await freebet(p, { currency_code: 'USD' });
      const cancelled = await freebet(p);
      expect((await p.rest('POST', '/freebet/cancel', { id: cancelled })).json.status).toBe('cancelled');
      const theirs = await freebet(other);
      const restr = async (body: Record<string, unknown>, session = p.session) => {
        const b = await place(session, { selections: [sel(e)], ...body });
        expect(b.status).toBe(2);
        return b.restrictions.map((r) => ({
          type: r.type,
          context: { ...r.context, sport_event_id: undefined },
        }));
      };
      const ctx = (o: Record<string, unknown>) => ({ ...o, sport_event_id: undefined });
      expect(await restr({ freebet_id: fb, stake: '9.99' })).toEqual([
        {
          type: 'freebet_amount',
          context: ctx({ freebet_id: fb, freebet_amount: '10.000000', stake: '9.990000' }),
        },
      ]);
      expect(await restr({ freebet_id: usd })).toEqual([
        { type: 'freebet_not_applicable', context: ctx({ freebet_id: usd, condition: 'currency_code' }) },
      ]);
      expect(await restr({ freebet_id: cancelled })).toEqual([
        { type: 'freebet_status', context: ctx({ freebet_id: cancelled, status: 'cancelled' }) },
      ]);
      expect(await restr({ freebet_id: theirs })).toEqual([
        { type: 'freebet_status', context: ctx({ freebet_id: theirs, status: 'not_found' }) },
      ]);
      expect(await restr({ freebet_id: 'nope' })).toEqual([
        { type: 'freebet_status', context: ctx({ freebet_id: 'nope', status: 'not_found' }) },
      ]);
      // an available freebet past its expiry reads expired and cannot be placed
      const late = await freebet(p);
      await w.t.deps.database.db
        .updateTable('freebet')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', late)
        .execute();
      expect(await restr({ freebet_id: late })).toEqual([
        { type: 'freebet_status', context: ctx({ freebet_id: late, status: 'expired' }) },
      ]);
      // every failed attempt left the freebets as they were
      expect((await p.rest('GET', `/freebet/${fb}`)).json.status).toBe('available');
      expect((await other.rest('GET', `/freebet/${theirs}`)).json.status).toBe('available');
      // and the USD freebet works for a USD session
      const usdSession = await createSession(w.t.app, p.token, {
        player_id: p.id,
        currency: 'USD',
        params: { currency: 'USD' },
      });
      await wallet.api.deposit(p.id, '5', 'USD');
      const ok = await place(usdSession, { selections: [sel(e)], currency: 'USD', freebet_id: usd });
      expect(ok.status).toBe(1);
    });

    it('two bets with one freebet at once: exactly one gets through', async () => {
      const p = await player('fb-race', '0');
      const e = await w.newEvent();
      const fb = await freebet(p);
      const bets = await Promise.all(
        Array.from({ length: 6 }, () => place(p.session, { selections: [sel(e)], freebet_id: fb })),
      );
      const accepted = bets.filter((b) => b.status === 1);
      expect(accepted).toHaveLength(1);
      for (const b of bets.filter((x) => x.status !== 1)) {
        expect(b.status).toBe(2);
        expect(b.restrictions.map((r) => [r.type, r.context.status])).toEqual([
          ['freebet_status', 'reserved'],
        ]);
      }
      expect((await p.rest('GET', `/freebet/${fb}`)).json).toMatchObject({
        status: 'reserved',
        used_on_bet_id: accepted[0]!.id,
      });
    });
  });

  describe('insurance: available → applied → paid or declined; paid → cancelled', () => {
    it('lost within max_odds_count_lose: paid (refund min(S × percent / 100, max_amount)); unsettle cancels it; settled again, paid again', async () => {
      const p = await player('ins-paid', '100');
      const e = await w.newEvent();
      const ins = await insurance(p); // 50 % of 10 = 5, capped at 4
      const bet = await place(p.session, { selections: [sel(e)], insurance_id: ins });
      expect(bet).toMatchObject({ status: 1, insurance_id: ins });
      const applied = (await p.rest('GET', `/insurance/${ins}`)).json as InsuranceView;
      expect(applied).toMatchObject({ status: 'applied', bet_id: bet.id, refund_amount: null });
      await delivered(bet.id, 2);
      const [placeCb, acceptCb] = await callbacksOf(bet.id);
      expect(placeCb!.json.bet_insurance_id).toBe(ins);
      expect(acceptCb!.json.bet_insurance_id).toBe(ins);
      expect(await balance(p.id)).toEqual({ available: '90.000000', held: '0.000000' });

      await result(e, '2', 2);
      await delivered(bet.id, 4);
      const paid = await callbacksOf(bet.id);
      expect(paid.slice(2).map((c) => c.path)).toEqual(['/bet/settle', '/bet/insurances/accepted']);
      expect(paid[3]!.json).toMatchObject({
        bet_id: bet.id,
        bet_insurance_id: ins,
        refund_amount: '4.000000',
      });
      expect(isCallbackBody('insuranceAccepted', paid[3]!.json)).toBe(true);
      expect((await p.rest('GET', `/insurance/${ins}`)).json).toMatchObject({
        status: 'paid',
        refund_amount: '4.000000',
      });
      expect(await balance(p.id)).toEqual({ available: '94.000000', held: '0.000000' });

      // the result is taken back (trader error): /bet/unsettle, then /bet/insurances/cancel of the refund paid
      await result(e, '2', 0);
      await delivered(bet.id, 6);
      const cancelled = await callbacksOf(bet.id);
      expect(cancelled.slice(4).map((c) => c.path)).toEqual(['/bet/unsettle', '/bet/insurances/cancel']);
      expect(cancelled[5]!.json).toMatchObject({
        bet_id: bet.id,
        bet_insurance_id: ins,
        refund_amount: '4.000000',
      });
      expect(isCallbackBody('insuranceCancel', cancelled[5]!.json)).toBe(true);
      expect((await p.rest('GET', `/insurance/${ins}`)).json).toMatchObject({
        status: 'cancelled',
        refund_amount: null,
      });
      expect(await balance(p.id)).toEqual({ available: '90.000000', held: '0.000000' });

      // settled lost again: paid again
      await result(e, '2', 2);
      await delivered(bet.id, 8);
      expect((await callbacksOf(bet.id)).slice(6).map((c) => c.path)).toEqual([
        '/bet/settle',
        '/bet/insurances/accepted',
      ]);
      expect((await p.rest('GET', `/insurance/${ins}`)).json.status).toBe('paid');
      expect(await balance(p.id)).toEqual({ available: '94.000000', held: '0.000000' });
      const check = await wallet.api.checkLedger(p.id);
      expect(check.ok).toBe(true);
    });

    /** The operator's open items of insurance refunds of a white label. */
    async function openItems(whiteLabelId: string) {
      const r = await w.t.app.inject({
        method: 'GET',
        url: `/admin/insurance-open-items?white_label_id=${whiteLabelId}`,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().items as Array<Record<string, unknown>>;
    }

    /** The `bookie_insurance_open_items` gauge of a white label and kind (0 when absent). */
    async function openItemsMetric(whiteLabelId: string, kind: string) {
      const { text } = await w.t.deps.metrics!.expose();
      const line = text
        .split('\n')
        .find((l) =>
          l.startsWith(`bookie_insurance_open_items{white_label="${whiteLabelId}",kind="${kind}"}`),
        );
      return line ? Number(line.split(' ').pop()) : 0;
    }

    const insuranceAudit = async (ins: string) =>
      (
        await w.t.deps.database.db
          .selectFrom('audit_log')
          .select(['action', 'details'])
          .where('subject', '=', `insurance:${ins}`)
          .orderBy('id')
          .execute()
      ).map((r): { action: string; kind?: string } => ({
        action: r.action,
        ...((typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as { kind?: string }),
      }));

    const paths = async (betId: string) => (await callbacksOf(betId)).map((c) => c.path);
    const insurancePaths = async (betId: string) =>
      (await paths(betId)).filter((x) => x.startsWith('/bet/insurances/'));

    it('a refund that cannot be taken back (opted out of cancel) stays with the player, is never paid twice, and is an open item while not earned', async () => {
      const p = await player('ins-nocancel', '100', { insurance_cancel_callbacks: false });
      const e = await w.newEvent();
      const ins = await insurance(p);
      const bet = await place(p.session, { selections: [sel(e)], insurance_id: ins });
      await result(e, '2', 2);
      await delivered(bet.id, 4);
      expect(await balance(p.id)).toEqual({ available: '94.000000', held: '0.000000' });
      // unsettled: no cancel; the refund stays
      await result(e, '2', 0);
      await delivered(bet.id, 5);
      expect((await p.rest('GET', `/insurance/${ins}`)).json).toMatchObject({
        status: 'paid',
        refund_amount: '4.000000',
      });
      // settled lost again: earned, and already paid: nothing more
      await result(e, '2', 2);
      await delivered(bet.id, 6);
      expect(await paths(bet.id)).toEqual([
        '/bet/place',
        '/bet/accept',
        '/bet/settle',
        '/bet/insurances/accepted',
        '/bet/unsettle',
        '/bet/settle',
      ]);
      expect(await openItems(p.whiteLabelId)).toEqual([]);
      // corrected to a win: the kept refund is no longer earned: an open item for the operator
      await result(e, '2', 1);
      await delivered(bet.id, 8);
      expect(await insurancePaths(bet.id)).toEqual(['/bet/insurances/accepted']);
      expect(await balance(p.id)).toEqual({ available: '119.000000', held: '0.000000' });
      expect(await openItems(p.whiteLabelId)).toEqual([
        {
          white_label_id: p.whiteLabelId,
          bet_id: bet.id,
          insurance_id: ins,
          player_id: p.id,
          kind: 'refund_kept_not_earned',
          amount: '4.000000',
          currency_code: 'EUR',
          since: expect.any(String),
        },
      ]);
      expect(await openItemsMetric(p.whiteLabelId, 'refund_kept_not_earned')).toBe(1);
      // lost once more: earned again, the item closes
      await result(e, '2', 2);
      await delivered(bet.id, 10);
      expect(await insurancePaths(bet.id)).toEqual(['/bet/insurances/accepted']);
      expect(await openItems(p.whiteLabelId)).toEqual([]);
      expect(await openItemsMetric(p.whiteLabelId, 'refund_kept_not_earned')).toBe(0);
      expect((await insuranceAudit(ins)).map((x) => [x.action, x.kind ?? null])).toEqual([
        ['insurance.refund_kept', null],
        ['insurance.open_item_opened', 'refund_kept_not_earned'],
        ['insurance.open_item_closed', 'refund_kept_not_earned'],
      ]);
      expect(await balance(p.id)).toEqual({ available: '94.000000', held: '0.000000' });
      expect((await wallet.api.checkLedger(p.id)).ok).toBe(true);
    });

    it('a cancel the partner does not implement leaves the refund with the player; the insurance callbacks queued behind it are withdrawn', async () => {
      // the reference wallet, behind a proxy that answers 404 to /bet/insurances/cancel
      const proxy = await proxyWithout(wallet.url, ['/bet/insurances/cancel']);
      try {
        const p = await player('ins-cancel-404', '100', { callback_url: proxy.url });
        const e = await w.newEvent();
        const ins = await insurance(p);
        const bet = await place(p.session, { selections: [sel(e)], insurance_id: ins });
        await result(e, '2', 2);
        await delivered(bet.id, 4);
        expect(await balance(p.id)).toEqual({ available: '94.000000', held: '0.000000' });
        // corrected to a win in one go: unsettle, settle, cancel, decline queued; the cancel is answered 404
        await result(e, '2', 1);
        await delivered(bet.id, 8);
        const rows = await w.t.deps.database.db
          .selectFrom('callback_delivery')
          .select(['path', 'status', 'last_status'])
          .where('bet_id', '=', bet.id)
          .orderBy('id')
          .execute();
        expect(rows.slice(4).map((r) => [r.path, r.status])).toEqual([
          ['/bet/unsettle', 'delivered'],
          ['/bet/settle', 'delivered'],
          ['/bet/insurances/cancel', 'unsupported'],
          ['/bet/insurances/decline', 'unsupported'],
        ]);
        expect(rows[6]!.last_status).toBe(404);
        expect(rows[7]!.last_status).toBeNull();
        expect(await balance(p.id)).toEqual({ available: '119.000000', held: '0.000000' });
        expect((await p.rest('GET', `/insurance/${ins}`)).json).toMatchObject({
          status: 'paid',
          refund_amount: '4.000000',
        });
        expect(await openItems(p.whiteLabelId)).toMatchObject([
          { bet_id: bet.id, insurance_id: ins, kind: 'refund_kept_not_earned', amount: '4.000000' },
        ]);
        // learnt: later unsettles send no cancel, and a loss pays no second accepted
        await result(e, '2', 2);
        await delivered(bet.id, 10);
        expect(await insurancePaths(bet.id)).toEqual([
          '/bet/insurances/accepted',
          '/bet/insurances/cancel',
          '/bet/insurances/decline',
        ]);
        expect(await openItems(p.whiteLabelId)).toEqual([]);
        expect(await balance(p.id)).toEqual({ available: '94.000000', held: '0.000000' });
      } finally {
        await proxy.close();
      }
    });

    it('won: declined, winnings paid normally; unsettled and settled lost: paid', async () => {
      const p = await player('ins-won', '100');
      const e = await w.newEvent();
      const ins = await insurance(p, {
        type: 'amount',
        amount: '3',
        percent: undefined,
        max_amount: undefined,
      });
      const bet = await place(p.session, { selections: [sel(e)], insurance_id: ins });
      await result(e, '2', 1);
      await delivered(bet.id, 4);
      const cbs = await callbacksOf(bet.id);
      expect(cbs.slice(2).map((c) => c.path)).toEqual(['/bet/settle', '/bet/insurances/decline']);
      expect(cbs[3]!.json).toEqual({ request_id: expect.any(String), bet_id: bet.id, bet_insurance_id: ins });
      expect((await p.rest('GET', `/insurance/${ins}`)).json).toMatchObject({
        status: 'declined',
        refund_amount: null,
      });
      expect(await balance(p.id)).toEqual({ available: '115.000000', held: '0.000000' });
      // a declined insurance moved no money: an unsettle sends nothing for it, and the next settle decides again
      await result(e, '2', 0);
      await delivered(bet.id, 5);
      expect((await p.rest('GET', `/insurance/${ins}`)).json.status).toBe('applied');
      await result(e, '2', 2);
      await delivered(bet.id, 7);
      expect((await callbacksOf(bet.id)).slice(4).map((c) => c.path)).toEqual([
        '/bet/unsettle',
        '/bet/settle',
        '/bet/insurances/accepted',
      ]);
      expect((await p.rest('GET', `/insurance/${ins}`)).json).toMatchObject({
        status: 'paid',
        refund_amount: '3.000000',
      });
      expect(await balance(p.id)).toEqual({ available: '93.000000', held: '0.000000' });
    });

    it('refunded (void): declined, stake returned', async () => {
      const p = await player('ins-void', '100');
      const e = await w.newEvent();
      const ins = await insurance(p);
      const bet = await place(p.session, { selections: [sel(e)], insurance_id: ins });
      await result(e, '2', 5);
      await delivered(bet.id, 4);
      expect((await callbacksOf(bet.id)).slice(2).map((c) => c.path)).toEqual([
        '/bet/settle',
        '/bet/insurances/decline',
      ]);
      expect((await p.rest('GET', `/insurance/${ins}`)).json.status).toBe('declined');
      expect(await balance(p.id)).toEqual({ available: '100.000000', held: '0.000000' });
    });

    it('lost with more lost legs than max_odds_count_lose: declined', async () => {
      const p = await player('ins-many', '100');
      const [e1, e2] = [await w.newEvent(), await w.newEvent()];
      const ins = await insurance(p); // max_odds_count_lose 1, no conditions
      const bet = await place(p.session, {
        bet_type: 'express',
        selections: [sel(e1), sel(e2)],
        insurance_id: ins,
      });
      expect(bet.status).toBe(1);
      await result(e1, '2', 2);
      await result(e2, '2', 2);
      await delivered(bet.id, 4);
      expect((await callbacksOf(bet.id)).slice(2).map((c) => c.path)).toEqual([
        '/bet/settle',
        '/bet/insurances/decline',
      ]);
      expect(await balance(p.id)).toEqual({ available: '90.000000', held: '0.000000' });
    });

    it('not accepted for any reason: stays available; status, conditions, freebet bets and stake range decline', async () => {
      const p = await player('ins-rules', '100', {
        limits: { min_stake: '2', max_stake: null, max_payout: null },
      });
      const e = await w.newEvent();
      const ins = await insurance(p, {
        stake_amount_range: { min: '5', max: '20' },
        conditions: single({ odds_coefficient: { max: '3' } }),
      });
      const ctx = (b: BetView) =>
        b.restrictions.map((r) => [r.type, r.context.condition ?? r.context.reason ?? r.context.status]);
      // declined for another reason (min_bet): the insurance stays available
      const small = await place(p.session, { selections: [sel(e)], insurance_id: ins, stake: '1' });
      expect(small.restrictions.map((r) => r.type).sort()).toEqual(['insurance_value', 'min_bet']);
      expect((await p.rest('GET', `/insurance/${ins}`)).json).toMatchObject({
        status: 'available',
        bet_id: null,
      });
      expect(
        ctx(await place(p.session, { selections: [sel(e)], insurance_id: ins, stake: '20.01' })),
      ).toEqual([['insurance_value', 'stake_amount_range']]);
      expect(
        ctx(await place(p.session, { selections: [sel(e, '1', '3', '3.5')], insurance_id: ins })),
      ).toEqual([['insurance_not_applicable', 'odds_coefficient']]);
      const fb = await freebet(p);
      expect(
        ctx(await place(p.session, { selections: [sel(e)], insurance_id: ins, freebet_id: fb })),
      ).toEqual([['insurance_not_applicable', 'freebet']]);
      expect((await p.rest('GET', `/freebet/${fb}`)).json.status).toBe('available');
      expect(await balance(p.id)).toEqual({ available: '100.000000', held: '0.000000' });
      // two bets at once with one insurance: exactly one is insured, the other declined
      const both = await Promise.all(
        [1, 2, 3].map(() => place(p.session, { selections: [sel(e)], insurance_id: ins })),
      );
      expect(both.filter((b) => b.status === 1)).toHaveLength(1);
      for (const b of both.filter((x) => x.status !== 1))
        expect(ctx(b)).toEqual([['insurance_status', 'applied']]);
      const winner = both.find((b) => b.status === 1)!;
      expect((await p.rest('GET', `/insurance/${ins}`)).json).toMatchObject({
        status: 'applied',
        bet_id: winner.id,
      });
      // and an insurance already applied cannot change
      expect((await p.rest('POST', '/insurance/update', { id: ins, percent: '10' })).status).toBe(409);
    });
  });

  describe('bet boost: quantity taken at placement, consumed on accept, given back on decline', () => {
    async function boost(p: Player, over: Record<string, unknown> = {}) {
      const r = await p.rest('POST', '/bet-boosts', { multiplier: '1.2', quantity: 2, ...over });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      return r.json.id as string;
    }
    const remaining = async (p: Player, id: string) =>
      (await p.rest('GET', `/bet-boosts/${id}`)).json.remaining_quantity;

    it('boosted odds on place and accept; a win pays S × odds × multiplier (D19)', async () => {
      const p = await player('bb-win', '100');
      const e = await w.newEvent();
      const b = await boost(p);
      const bet = await place(p.session, { selections: [sel(e)], boost_id: b });
      expect(bet).toMatchObject({ status: 1, boost_id: b, total_odds: '3.000000' });
      expect(await remaining(p, b)).toBe(1);
      await delivered(bet.id, 2);
      const [placeCb, acceptCb] = await callbacksOf(bet.id);
      for (const cb of [placeCb!, acceptCb!]) {
        expect(cb.json).toMatchObject({
          bet_boost_id: b,
          total_odds_value: '3.000000',
          base_odds_value: '2.500000',
        });
      }
      await result(e, '2', 1);
      const settle = await settleOf(bet.id);
      expect(settle.json).toMatchObject({
        settle_amount: '30.000000',
        settle_type: 1,
        bet_boost_id: b,
        total_odds_value: '3.000000',
        base_odds_value: '2.500000',
      });
      await delivered(bet.id, 3);
      expect(await balance(p.id)).toEqual({ available: '120.000000', held: '0.000000' });
    });

    it('max payout limits the stake on the boosted odds (D19), not the base odds', async () => {
      // max payout 28: at base odds 2.5 a stake of 10 pays 25 (within), boosted ×1.2 it pays 30 (over)
      const p = await player('bb-cap', '100', {
        limits: { min_stake: null, max_stake: null, max_payout: '28' },
      });
      const e = await w.newEvent();
      const b = await boost(p);
      const over = await place(p.session, { selections: [sel(e)], boost_id: b });
      expect(over.status).toBe(2);
      expect(over.restrictions).toEqual([
        { type: 'max_bet', context: { max_bet: '9.333333', sport_event_id: e } },
      ]);
      expect(await remaining(p, b)).toBe(2);
      const within = await place(p.session, { selections: [sel(e)], boost_id: b, stake: '9.33' });
      expect(within).toMatchObject({ status: 1, total_odds: '3.000000' });
      const plain = await place(p.session, { selections: [sel(e)] });
      expect(plain.status).toBe(1);
    });

    it('a voided boosted bet refunds the stake without boost (D19)', async () => {
      const p = await player('bb-void', '100');
      const e = await w.newEvent();
      const b = await boost(p);
      const bet = await place(p.session, { selections: [sel(e)], boost_id: b });
      await result(e, '2', 6);
      const settle = await settleOf(bet.id);
      expect(settle.json).toMatchObject({ settle_amount: '10.000000', settle_type: 2 });
      await delivered(bet.id, 3);
      expect(await balance(p.id)).toEqual({ available: '100.000000', held: '0.000000' });
    });

    it('given back on decline and on Place Error; exhausted and condition failures are bonus_not_applicable', async () => {
      const p = await player('bb-rules', '100');
      const e = await w.newEvent();
      const b = await boost(p, {
        quantity: 1,
        conditions: [
          {
            type: 'bet_details',
            data: { bet_details: [{ type: 'single', data: { odds_coefficient: { min: '2' } } }] },
          },
        ],
      });
      const cond = await place(p.session, { selections: [sel(e, '1', '1', '1.5')], boost_id: b });
      expect(cond.restrictions.map((r) => [r.type, r.context.reason])).toEqual([
        ['bonus_not_applicable', 'odds_coefficient'],
      ]);
      expect(await remaining(p, b)).toBe(1);
      // Place Error: the wallet refuses the hold (200 > 100)
      const broke = await place(p.session, { selections: [sel(e)], boost_id: b, stake: '200' });
      expect(broke).toMatchObject({ status: 10, restrictions: [{ type: 'not_enough_balance' }] });
      expect(await remaining(p, b)).toBe(1);
      const ok = await place(p.session, { selections: [sel(e)], boost_id: b });
      expect(ok.status).toBe(1);
      expect(await remaining(p, b)).toBe(0);
      expect((await p.rest('GET', `/bet-boosts/${b}`)).json.status).toBe('exhausted');
      const none = await place(p.session, { selections: [sel(e)], boost_id: b });
      expect(none.restrictions.map((r) => [r.type, r.context.reason])).toEqual([
        ['bonus_not_applicable', 'exhausted'],
      ]);
      // a boost for another player is unknown to this one
      const theirs = await boost(p, { player_id: 'someone-else' });
      const notMine = await place(p.session, { selections: [sel(e)], boost_id: theirs });
      expect(notMine.restrictions.map((r) => [r.type, r.context.reason])).toEqual([
        ['bonus_not_applicable', 'not_found'],
      ]);
      await quiet(p.whiteLabelId);
      expect(await balance(p.id)).toEqual({ available: '90.000000', held: '0.000000' });
    });
  });
});
