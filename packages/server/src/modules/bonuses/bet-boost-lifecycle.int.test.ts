import { describe, expect, it } from 'vitest';
import type { SettlementWorld } from '../settlement/settlement.testing.js';
import { type Player, useBonusWorld } from './bonus-lifecycle.testing.js';

/**
 * Every edge of the bet boost state machine (spec 01) through the real flow: the frame API places bets, the trading API results markets, the settlement consumer settles, the dispatcher calls the
 * reference wallet, and the wallet's balances are checked at each step.
 */
describe(`bonuses through the life of a bet, with the reference wallet (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let w: SettlementWorld;

  const { player, place, sel, delivered, quiet, settleOf, callbacksOf, balance, result } = useBonusWorld(
    (started) => {
      ({ w } = started);
    },
  );

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
