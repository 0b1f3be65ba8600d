import type { BetView, InsuranceView } from '@bookie/contracts';
import { isCallbackBody } from '@bookie/contracts';
import type { TestWallet } from '@bookie/wallet/testing/in-process';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { proxyWithout } from '../../testing/unsupported-paths-proxy.js';
import type { SettlementWorld } from '../settlement/settlement.testing.js';
import { useBonusWorld } from './bonus-lifecycle.testing.js';

/**
 * Every edge of the insurance state machine (spec 01) through the real flow: the frame API places bets, the trading API results markets, the settlement consumer settles, the dispatcher calls the
 * reference wallet, and the wallet's balances are checked at each step.
 */
describe(`bonuses through the life of a bet, with the reference wallet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let wallet: TestWallet;
  let w: SettlementWorld;

  const { player, place, sel, delivered, callbacksOf, balance, result, single, freebet, insurance } =
    useBonusWorld((started) => {
      ({ wallet, w } = started);
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
});
