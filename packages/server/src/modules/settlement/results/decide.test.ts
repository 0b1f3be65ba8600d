import { parseDecimal } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import type { BetRow, SelectionRow } from '../../bets/bet.js';
import { computeOutcome, decideTransition, type SettlementLimits } from './decide.js';

const limits: SettlementLimits = { expressCap: parseDecimal('50000', { field: 'cap', maxDecimals: 6 }) };

function bet(over: Partial<BetRow> = {}): BetRow {
  return {
    id: 'b',
    white_label_id: 'wl',
    player_id: 'p',
    currency: 'EUR',
    bet_type: 'single',
    system_sizes: [],
    stake: '10.000000',
    odds_strategy: 1,
    base_odds: '2.000000000000',
    total_odds: '2.000000000000',
    state: 'accepted',
    restrictions: [],
    freebet_id: null,
    insurance_id: null,
    boost_id: null,
    boost_multiplier: null,
    foreign_params: {},
    session_token_hash: null,
    client_key: null,
    created_at: new Date(),
    placement_deadline: new Date(),
    decided_at: new Date(),
    payout: null,
    settle_amount: null,
    settle_type: null,
    settled_at: null,
    settlement_seq: 0,
    updated_at: new Date(),
    settle_status: null,
    ...over,
  } as BetRow;
}

const sel = (status: number, odds = '2.000000000000', dead_heat: string | null = null) =>
  ({ status, odds, dead_heat, status_reason: '', result_source: 'feed' }) as SelectionRow;

describe('decideTransition', () => {
  it('settles an accepted bet once every selection is resulted, not before', () => {
    expect(decideTransition(bet(), [sel(0)], false, limits)).toEqual({ kind: 'none' });
    expect(decideTransition(bet(), [sel(1)], true, limits)).toEqual({
      kind: 'settle',
      outcome: { payout: '20.000000', settleAmount: '20.000000', settleType: 1, settleStatus: 3 },
    });
    expect(decideTransition(bet({ state: 'unsettled' }), [sel(2)], true, limits)).toMatchObject({
      kind: 'settle',
      outcome: { settleAmount: '0.000000', settleType: 3 },
    });
  });

  it('leaves an unchanged settled bet alone; resettles on another amount or other statuses; unsettles on 0', () => {
    const settled = bet({
      state: 'settled',
      payout: '20.000000',
      settle_amount: '20.000000',
      settle_type: 1,
      settle_status: 3,
    });
    expect(decideTransition(settled, [sel(1)], false, limits)).toEqual({ kind: 'none' });
    expect(decideTransition(settled, [sel(1)], true, limits)).toMatchObject({ kind: 'resettle' });
    expect(decideTransition(settled, [sel(3)], true, limits)).toMatchObject({
      kind: 'resettle',
      outcome: { settleAmount: '15.000000' },
    });
    expect(decideTransition(settled, [sel(0)], true, limits)).toEqual({ kind: 'unsettle' });
    // a cap lowered since: the same selections give another amount
    const capped = { ...limits, maxPayout: parseDecimal('12', { field: 'm', maxDecimals: 6 }) };
    expect(decideTransition(settled, [sel(1)], false, capped)).toMatchObject({
      kind: 'resettle',
      outcome: { settleAmount: '12.000000' },
    });
    expect(decideTransition(bet({ state: 'declined' }), [sel(1)], true, limits)).toEqual({ kind: 'none' });
  });

  it('codes void bets 5, and 6 when an operator refunded them', () => {
    expect(computeOutcome(bet(), [sel(5)], limits)).toMatchObject({ settleType: 2, settleStatus: 5 });
    expect(computeOutcome(bet(), [sel(6)], limits)).toMatchObject({ settleType: 2, settleStatus: 5 });
    expect(computeOutcome(bet(), [sel(7)], limits)).toMatchObject({ settleType: 2, settleStatus: 6 });
    // half win × half loss can equal the stake without being a refund
    const x = bet({ bet_type: 'express', total_odds: '4.000000000000' });
    expect(computeOutcome(x, [sel(1), sel(4)], limits)).toMatchObject({ settleType: 2, settleStatus: 3 });
  });

  it('applies the express cap, the dead heat, freebets and boosts', () => {
    const x = bet({ bet_type: 'express', stake: '10000.000000' });
    expect(computeOutcome(x, [sel(1, '3.000000000000'), sel(1, '3.000000000000')], limits).payout).toBe(
      '50000.000000',
    );
    expect(computeOutcome(bet(), [sel(1, '3.000000000000', '0.500000000000')], limits).payout).toBe(
      '15.000000',
    );
    // freebet: the stake is not paid back (D18)
    expect(computeOutcome(bet({ freebet_id: 'f' }), [sel(1)], limits)).toMatchObject({
      payout: '20.000000',
      settleAmount: '10.000000',
      settleType: 1,
    });
    expect(computeOutcome(bet({ freebet_id: 'f' }), [sel(2)], limits).settleAmount).toBe('0.000000');
    // boost: total / base odds as the multiplier (D19); a void bet pays the stake without it
    const boosted = bet({ boost_id: 'x', total_odds: '2.200000000000' });
    expect(computeOutcome(boosted, [sel(1)], limits).payout).toBe('22.000000');
    expect(computeOutcome(boosted, [sel(5)], limits).payout).toBe('10.000000');
    // the exact multiplier recorded at acceptance wins over the rounded odds
    const exact = bet({ boost_id: 'x', boost_multiplier: '1.25', total_odds: '2.500000000000' });
    expect(computeOutcome(exact, [sel(3)], limits).payout).toBe('18.750000');
  });
});
