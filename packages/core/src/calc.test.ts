import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import { calculateBet, parseCalcInput } from './calc.js';

const single = { bet_type: 'single', stake: '10', legs: [{ odds: '1.85', status: 1 }] };

describe('bet calculator', () => {
  it('computes payout, settle amount, settle type and insurance refund', () => {
    expect(calculateBet(single)).toEqual({
      payout: '18.500000',
      settle_amount: '18.500000',
      settle_type: 1,
      insurance_refund: '0.000000',
    });
    expect(
      calculateBet({
        bet_type: 'express',
        stake: '10',
        legs: [
          { odds: '1.5', status: 1 },
          { odds: '2', status: 2 },
          { odds: '3', status: 4 },
        ],
        insurance: { type: 'percent', percent: '10', max_amount: '15', max_odds_count_lose: 2 },
      }),
    ).toEqual({
      payout: '0.000000',
      settle_amount: '0.000000',
      settle_type: 3,
      insurance_refund: '1.000000',
    });
    expect(
      calculateBet({
        bet_type: 'express',
        stake: '10',
        legs: [
          { odds: '1.5', status: 2 },
          { odds: '2', status: 2 },
        ],
        insurance: { type: 'amount', amount: '5', max_odds_count_lose: 1 },
      }).insurance_refund,
    ).toBe('0.000000');
    expect(calculateBet({ ...single, boost: { multiplier: '1.2' } }).payout).toBe('22.200000');
    expect(
      calculateBet({ ...single, stake: '100000', legs: [{ odds: '2', status: 1 }], max_payout: '150000' })
        .payout,
    ).toBe('150000.000000');
    expect(
      calculateBet({
        bet_type: 'express',
        stake: '100',
        legs: [
          { odds: '20', status: 1 },
          { odds: '30', status: 1 },
        ],
        express_cap: '55000',
      }).payout,
    ).toBe('55000.000000');
    expect(calculateBet({ ...single, id: 'S1' }).payout).toBe('18.500000');
  });

  it.each([
    [{ ...single, stake: '1e1' }, 'stake', 'exponent'],
    [{ ...single, stake: 'NaN' }, 'stake', 'finite'],
    [{ ...single, stake: '10.0000001' }, 'stake', '6 decimals'],
    [{ ...single, stake: '-10' }, 'stake', 'negative'],
    [{ ...single, stake: '0' }, 'stake', 'zero'],
    [{ ...single, stake: 10 }, 'stake', 'decimal string'],
    [{ ...single, legs: [{ odds: '0', status: 1 }] }, 'legs[0].odds', 'zero'],
    [{ ...single, legs: [{ odds: '0.95', status: 1 }] }, 'legs[0].odds', 'at least 1'],
    [{ ...single, legs: [{ odds: '1.5e0', status: 1 }] }, 'legs[0].odds', 'exponent'],
    [{ ...single, legs: [{ odds: '1.0000000000001', status: 1 }] }, 'legs[0].odds', '12 decimals'],
    [{ ...single, legs: [{ odds: 1.85, status: 1 }] }, 'legs[0].odds', 'decimal string'],
    [{ ...single, legs: [{ odds: '1.85', status: 0 }] }, 'legs[0].status', 'not resulted'],
    [{ ...single, legs: [{ odds: '1.85', status: 9 }] }, 'legs[0].status', '1–7'],
    [{ ...single, legs: [{ odds: '1.85', status: '1' }] }, 'legs[0].status', '1–7'],
    [{ ...single, legs: [{ odds: '1.85', status: 2, dead_heat: '0.5' }] }, 'legs[0].dead_heat', 'win'],
    [{ ...single, legs: [{ odds: '1.85', status: 1, dead_heat: '1.5' }] }, 'legs[0].dead_heat', 'at most 1'],
    [{ ...single, legs: [{ odds: '1.85', status: 1, dh: '1' }] }, 'legs[0].dh', 'not an allowed field'],
    [{ ...single, legs: ['x'] }, 'legs[0]', 'object'],
    [{ ...single, legs: {} }, 'legs', 'array'],
    [{ ...single, legs: [] }, 'legs', 'exactly 1'],
    [{ ...single, bet_type: 'combo' }, 'bet_type', 'single'],
    [{ ...single, system_sizes: [2] }, 'system_sizes', 'only a system'],
    [{ ...single, bet_type: 'express' }, 'legs', 'at least 2'],
    [
      {
        ...single,
        bet_type: 'system',
        legs: [
          { odds: '2', status: 1 },
          { odds: '2', status: 1 },
        ],
      },
      'system_sizes',
      'array',
    ],
    [
      {
        ...single,
        bet_type: 'system',
        system_sizes: [3],
        legs: [
          { odds: '2', status: 1 },
          { odds: '2', status: 1 },
        ],
      },
      'system_sizes[0]',
      '2 to 2',
    ],
    [
      {
        ...single,
        bet_type: 'system',
        system_sizes: ['2'],
        legs: [
          { odds: '2', status: 1 },
          { odds: '2', status: 1 },
        ],
      },
      'system_sizes[0]',
      'integer',
    ],
    [{ ...single, freebet_amount: '-1' }, 'freebet_amount', 'negative'],
    [{ ...single, boost: { multiplier: '0.5' } }, 'boost.multiplier', 'at least 1'],
    [{ ...single, boost: 2 }, 'boost', 'object'],
    [{ ...single, insurance: { type: 'percent', percent: 'abc' } }, 'insurance.percent', 'decimal string'],
    [
      { ...single, insurance: { type: 'percent', percent: '5', cap: '1' } },
      'insurance.cap',
      'not an allowed field',
    ],
    [{ ...single, express_cap: '0' }, 'express_cap', 'zero'],
    [{ ...single, payout: '18.5' }, 'payout', 'not an allowed field'],
    [{ ...single, id: 5 }, 'id', 'string'],
  ])('rejects %j naming %s', (input, field, part) => {
    expectFieldError(() => parseCalcInput(input), field, part);
  });

  it('rejects a non-object input', () => {
    expectFieldError(() => parseCalcInput([]), 'input', 'object');
    expectFieldError(() => parseCalcInput(null), 'input', 'object');
  });
});
