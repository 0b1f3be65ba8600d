import { parseDecimal } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import type { BetBuilder, BetRow, BuilderRow, SelectionRow } from '../../bets/bet.js';
import { builderWithLegs } from './builders.js';
import { computeOutcome, decideTransition, type SettlementLimits } from './decide.js';

const limits: SettlementLimits = { expressCap: parseDecimal('50000', { field: 'cap', maxDecimals: 6 }) };

const row = (over: Partial<BetRow> = {}) =>
  ({
    id: 'b',
    white_label_id: 'wl',
    currency: 'EUR',
    bet_type: 'single',
    system_sizes: [],
    stake: '10.000000',
    base_odds: '5.000000000000',
    total_odds: '5.000000000000',
    state: 'accepted',
    freebet_id: null,
    boost_id: null,
    boost_multiplier: null,
    foreign_cashed_out: '0',
    cashed_out_stake: '0',
    payout: null,
    settle_amount: null,
    settle_type: null,
    settle_status: null,
    ...over,
  }) as unknown as BetRow;
const leg = (
  status: number,
  reason = '',
  source: SelectionRow['result_source'] = 'feed',
  dead_heat: string | null = null,
) =>
  ({
    bet_id: 'b',
    status,
    odds: '1.500000000000',
    dead_heat,
    status_reason: reason,
    result_source: source,
  }) as SelectionRow;
const builder = (legs: SelectionRow[], odds = '5.000000000000'): BetBuilder => ({
  row: {
    bet_id: 'b',
    builder: 0,
    odds,
    status: 0,
    dead_heat: null,
    status_reason: '',
    result_source: 'feed',
  } as BuilderRow,
  legs,
});

describe('builderWithLegs: the builder row follows its inner legs (D63)', () => {
  it('won, lost with the losing leg’s reason, refunded with the refunding leg’s reason and source', () => {
    expect(builderWithLegs(builder([]), [leg(1), leg(1)]).row).toMatchObject({
      status: 1,
      status_reason: '',
    });
    expect(builderWithLegs(builder([]), [leg(6, 'market_cancelled'), leg(2, 'x')]).row).toMatchObject({
      status: 2,
      status_reason: 'x',
    });
    expect(builderWithLegs(builder([]), [leg(1), leg(6, 'rb', 'rollback')]).row).toMatchObject({
      status: 6,
      status_reason: 'rb',
      result_source: 'rollback',
    });
    expect(builderWithLegs(builder([]), [leg(7, 'goodwill', 'manual'), leg(1)]).row).toMatchObject({
      status: 7,
      result_source: 'manual',
    });
    expect(builderWithLegs(builder([]), [leg(1, '', 'feed', '0.5'), leg(1)]).row).toMatchObject({
      status: 1,
      dead_heat: '0.500000000000',
    });
  });
});

describe('a bet of builders settles with each builder as one selection', () => {
  it('single builder: won at its combined odds, lost on a lost leg before the others are resulted, refunded on a void leg', () => {
    expect(computeOutcome(row(), [], limits, [builder([leg(1), leg(1)])])).toMatchObject({
      payout: '50.000000',
      settleType: 1,
      settleStatus: 3,
    });
    expect(decideTransition(row(), [], true, limits, [builder([leg(0), leg(2)])])).toMatchObject({
      kind: 'settle',
      outcome: { payout: '0.000000', settleType: 3 },
    });
    expect(decideTransition(row(), [], true, limits, [builder([leg(0), leg(1)])])).toEqual({ kind: 'none' });
    expect(computeOutcome(row(), [], limits, [builder([leg(1), leg(5)])])).toMatchObject({
      payout: '10.000000',
      settleType: 2,
      settleStatus: 5,
    });
    expect(computeOutcome(row(), [], limits, [builder([leg(1), leg(7, 'x', 'manual')])])).toMatchObject({
      settleStatus: 6,
    });
  });

  it('express of a plain selection and a builder; a settled bet whose builder goes back to 0 is unsettled', () => {
    const x = row({ bet_type: 'express', total_odds: '7.500000000000' });
    const plain = { ...leg(1), odds: '1.500000000000' } as SelectionRow;
    expect(computeOutcome(x, [plain], limits, [builder([leg(1), leg(1)])]).payout).toBe('75.000000');
    expect(computeOutcome(x, [plain], limits, [builder([leg(1), leg(6)])]).payout).toBe('15.000000');
    const settled = row({
      bet_type: 'express',
      state: 'settled',
      payout: '75.000000',
      settle_amount: '75.000000',
      settle_type: 1,
      settle_status: 3,
    });
    expect(decideTransition(settled, [plain], true, limits, [builder([leg(1), leg(0)])])).toEqual({
      kind: 'unsettle',
    });
    expect(decideTransition(settled, [plain], false, limits, [builder([leg(1), leg(1)])])).toEqual({
      kind: 'none',
    });
  });
});
