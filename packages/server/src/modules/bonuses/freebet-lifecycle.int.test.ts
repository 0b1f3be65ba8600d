import type { BetView } from '@bookie/contracts';
import type { TestWallet } from '@bookie/wallet/testing/in-process';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../testing/partner.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { recoverPlacements } from '../placement/recover-placements.js';
import type { SettlementWorld } from '../settlement/settlement.testing.js';
import { useBonusWorld } from './bonus-lifecycle.testing.js';

/**
 * Every edge of the freebet state machine (spec 01) through the real flow: the frame API places bets, the trading API results markets, the settlement consumer settles, the dispatcher calls the
 * reference wallet, and the wallet's balances are checked at each step.
 */
describe(`bonuses through the life of a bet, with the reference wallet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let wallet: TestWallet;
  let w: SettlementWorld;

  const { player, place, sel, delivered, settleOf, callbacksOf, balance, result, single, freebet } =
    useBonusWorld((started) => {
      ({ wallet, w } = started);
    });

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
});
