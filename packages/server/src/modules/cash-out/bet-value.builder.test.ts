import { parseDecimal } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import type { BetRow } from '../bets/index.js';
import { offerFor, type Pricing } from './bet-value.js';
import type { ValuedBet } from './cash-out.repo.js';
import type { CashOutDeps } from './deps.js';

const d = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });
const pricing: Pricing = { margin: d('0.05'), maxPayout: undefined, payable: true };
const row = {
  id: 'b',
  state: 'accepted',
  stake: '10.000000',
  cashed_out_stake: '0',
  foreign_cashed_out: '0',
  source: 'frame',
} as unknown as BetRow;

describe('cash-out of a bet carrying a bet builder (D65)', () => {
  it('offers nothing, with the reason bet_builder, before any pricing', () => {
    // deps are never reached: the refusal comes before the value
    const deps = {} as CashOutDeps;
    const bet: ValuedBet = {
      row,
      selections: [
        {
          sport_event_id: 'e',
          market_id: '1',
          odd_id: '1',
          odds: '2',
          status: 0,
          dead_heat: null,
          foreign_id: null,
        },
      ],
      builders: [0],
    };
    expect(offerFor(deps, bet, undefined, pricing)).toMatchObject({
      available: false,
      reason: 'bet_builder',
    });
    expect(offerFor(deps, { ...bet, selections: [] }, d('5'), pricing)).toMatchObject({
      reason: 'bet_builder',
    });
  });
});
