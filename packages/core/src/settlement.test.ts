import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import { parseDecimal, type Rational, rational } from './decimal.js';
import {
  boostFactor,
  EXPRESS_CAP_EUR,
  exactPayout,
  expressCapInCurrency,
  freebetCredit,
  isResulted,
  isVoided,
  legFactor,
  roundPayout,
  type SettleBetInput,
  type SettlementLeg,
  settleBet,
  settleTypeOf,
  totalOdds,
} from './settlement.js';
import type { OddStatus } from './statuses.js';

const d = (s: string): Rational => parseDecimal(s, { field: 'x', maxDecimals: 20, maxIntegerDigits: 30 });
const leg = (odds: string, status: number, deadHeat?: string): SettlementLeg => ({
  odds: d(odds),
  status: status as OddStatus,
  ...(deadHeat ? { deadHeat: d(deadHeat) } : {}),
});
const bet = (over: Partial<SettleBetInput> & Pick<SettleBetInput, 'legs'>): SettleBetInput => ({
  betType: over.legs.length === 1 ? 'single' : 'express',
  stake: d('10'),
  expressCap: EXPRESS_CAP_EUR,
  ...over,
});

describe('legFactor (DECISIONS D15, D4)', () => {
  it.each([
    [1, '1.9'],
    [2, '0'],
    [3, '1.45'],
    [4, '0.5'],
    [5, '1'],
    [6, '1'],
    [7, '1'],
  ])('status %i → %s', (status, want) => {
    expect(legFactor(leg('1.9', status))).toEqual(d(want));
  });

  it('dead heat multiplies a win', () => {
    expect(legFactor(leg('5.0', 1, '0.5'))).toEqual(d('2.5'));
    expectFieldError(() => legFactor(leg('5.0', 2, '0.5'), 'legs[0]'), 'legs[0].dead_heat', 'win');
    expectFieldError(() => legFactor(leg('5.0', 1, '1.5'), 'legs[0]'), 'legs[0].dead_heat');
  });

  it('status 0 cannot be settled; other codes are invalid', () => {
    expectFieldError(
      () => legFactor(leg('2', 0), 'legs[1]'),
      'legs[1].status',
      'not resulted',
      'not_resulted',
    );
    expectFieldError(() => legFactor(leg('2', 8), 'legs[1]'), 'legs[1].status', '0–7');
    expect(isResulted([leg('2', 1), leg('2', 0)])).toBe(false);
    expect(isResulted([leg('2', 1), leg('2', 5)])).toBe(true);
    expect(() => settleBet(bet({ legs: [leg('2', 1), leg('3', 0)] }))).toThrow(/not resulted/);
  });
});

describe('settleBet', () => {
  it('single, express, system', () => {
    expect(settleBet(bet({ legs: [leg('1.85', 1)] })).payout).toEqual(d('18.5'));
    expect(settleBet(bet({ legs: [leg('1.5', 1), leg('2', 1)] })).payout).toEqual(d('30'));
    const sys = settleBet(
      bet({
        betType: 'system',
        stake: d('30'),
        systemSizes: [2],
        legs: [leg('2', 1), leg('3', 1), leg('1.5', 2)],
      }),
    );
    expect(sys.payout).toEqual(d('60'));
  });

  it('rounds once, half-up, to 3 decimals (D16)', () => {
    // 1 × 1.0005 = 1.0005 → 1.001; 3 × (1/3 stake) style repeating values
    expect(settleBet(bet({ stake: d('1'), legs: [leg('1.0005', 1), leg('1.0', 5)] })).payout).toEqual(
      d('1.001'),
    );
    const s = settleBet(
      bet({
        betType: 'system',
        stake: d('1'),
        systemSizes: [2],
        legs: [leg('1.1', 1), leg('1.3', 1), leg('1.7', 1)],
      }),
    );
    // each combination stakes 1/3: (1.43 + 1.87 + 2.21) / 3 = 1.836666… → 1.837
    expect(s.payout).toEqual(d('1.837'));
  });

  it('a voided bet pays exactly its stake, even with 6 decimals, a boost or a low cap (D16, D19)', () => {
    const legs = [leg('1.5', 5), leg('2', 6), leg('3', 7)];
    const out = settleBet(
      bet({ stake: d('10.123456'), legs, boost: { multiplier: d('1.5') }, maxPayout: d('5') }),
    );
    expect(out.payout).toEqual(d('10.123456'));
    expect(out.voided).toBe(true);
    expect(out.settleType).toBe(2);
  });

  it('caps each express and each system combination at the converted 50,000 EUR (D17)', () => {
    const e10 = settleBet(bet({ stake: d('100'), legs: [leg('20', 1), leg('30', 1)] }));
    expect(e10.payout).toEqual(d('50000'));
    expect(e10.capped).toBe(true);
    // USD at 1.1 → cap 55,000
    const usd = settleBet(
      bet({
        stake: d('100'),
        legs: [leg('20', 1), leg('30', 1)],
        expressCap: expressCapInCurrency(d('1.1')),
      }),
    );
    expect(usd.payout).toEqual(d('55000'));
    // system of 3 × [2] with stake 300: each combination 100 × 20 × 30 = 60,000 → 50,000 each
    const sys = settleBet(
      bet({
        betType: 'system',
        stake: d('300'),
        systemSizes: [2],
        legs: [leg('20', 1), leg('30', 1), leg('40', 1)],
      }),
    );
    expect(sys.payout).toEqual(d('150000'));
    // a single is not an express: no express cap, only a white-label max payout
    expect(settleBet(bet({ stake: d('1000'), legs: [leg('100', 1)] })).payout).toEqual(d('100000'));
    expect(settleBet(bet({ stake: d('1000'), legs: [leg('100', 1)], maxPayout: d('20000') })).payout).toEqual(
      d('20000'),
    );
    expect(expressCapInCurrency(d('1'))).toEqual(d('50000'));
    expectFieldError(() => expressCapInCurrency(d('0')), 'eur_rate');
  });

  it('never rounds above a cap with more than 3 decimals', () => {
    const cap = d('55000.0005'); // e.g. 50,000 × 1.10000001
    const out = settleBet(bet({ stake: d('100'), legs: [leg('20', 1), leg('30', 1)], expressCap: cap }));
    expect(out.payout).toEqual(d('55000'));
    expect(roundPayout(d('1.0005'))).toEqual(d('1.001'));
    expect(roundPayout(d('1.0005'), d('1.0005'))).toEqual(d('1'));
  });

  it('settle_type per D3', () => {
    expect(settleTypeOf(d('11'), d('10'))).toBe(1);
    expect(settleTypeOf(d('10'), d('10'))).toBe(2);
    expect(settleTypeOf(d('9.999'), d('10'))).toBe(3);
    expect(settleBet(bet({ legs: [leg('1.9', 4)] })).settleType).toBe(3);
  });

  it('freebet credit = max(0, payout − freebet amount) (D18)', () => {
    expect(freebetCredit(d('25'), d('10'))).toEqual(d('15'));
    expect(freebetCredit(d('5'), d('10'))).toEqual(d('0'));
    const out = settleBet(bet({ legs: [leg('2.5', 3)], freebetAmount: d('10') }));
    expect(out.payout).toEqual(d('17.5'));
    expect(out.settleAmount).toEqual(d('7.5'));
    expect(out.settleType).toBe(1);
  });

  it('rejects bad shapes naming the field', () => {
    expectFieldError(
      () => settleBet(bet({ betType: 'single', legs: [leg('2', 1), leg('2', 1)] })),
      'legs',
      'exactly 1',
    );
    expectFieldError(() => settleBet(bet({ betType: 'express', legs: [leg('2', 1)] })), 'legs', 'at least 2');
    expectFieldError(
      () =>
        settleBet(
          bet({ betType: 'system', systemSizes: [2, 4], legs: [leg('2', 1), leg('2', 1), leg('2', 1)] }),
        ),
      'system_sizes[1]',
      '2 to 3',
    );
    expectFieldError(
      () => settleBet(bet({ betType: 'system', legs: [leg('2', 1), leg('2', 1)] })),
      'system_sizes',
    );
    expectFieldError(() => settleBet(bet({ stake: d('0'), legs: [leg('2', 1)] })), 'stake');
    expectFieldError(
      () => settleBet(bet({ legs: [leg('2', 1)], boost: { multiplier: d('0.9') } })),
      'boost.multiplier',
    );
  });
});

describe('boost (D19)', () => {
  it('multiplies the total odds of a winning single or express', () => {
    expect(totalOdds([d('1.5'), d('2')])).toEqual(d('3'));
    expect(totalOdds([d('1.5'), d('2')], { multiplier: d('1.1') })).toEqual(d('3.3'));
    const out = settleBet(bet({ legs: [leg('1.5', 1), leg('2', 1)], boost: { multiplier: d('1.1') } }));
    expect(out.payout).toEqual(d('33'));
    // a refunded leg counts 1 in the total odds; the boost stays
    const partial = settleBet(bet({ legs: [leg('1.5', 1), leg('2', 5)], boost: { multiplier: d('1.1') } }));
    expect(partial.payout).toEqual(d('16.5'));
  });

  it('never turns a loss, a half loss or a refund into a win', () => {
    expect(boostFactor(d('0.5'), { multiplier: d('3') })).toEqual(d('0.5'));
    expect(boostFactor(d('1'), { multiplier: d('3') })).toEqual(d('1'));
    expect(settleBet(bet({ legs: [leg('1.9', 4)], boost: { multiplier: d('3') } })).payout).toEqual(d('5'));
    expect(settleBet(bet({ legs: [leg('1.9', 2)], boost: { multiplier: d('3') } })).payout).toEqual(d('0'));
  });

  it('applies to each system combination, before the cap', () => {
    const legs = [leg('2', 1), leg('3', 1), leg('1.5', 2)];
    const out = settleBet(
      bet({ betType: 'system', stake: d('30'), systemSizes: [2], legs, boost: { multiplier: d('1.5') } }),
    );
    expect(out.payout).toEqual(d('90')); // only 2×3 wins: 10 × 6 × 1.5
    const capped = settleBet(
      bet({ stake: d('100'), legs: [leg('20', 1), leg('20', 1)], boost: { multiplier: d('2') } }),
    );
    expect(capped.payout).toEqual(d('50000'));
  });
});

describe('exactPayout', () => {
  it('is exact before rounding', () => {
    const v = exactPayout(bet({ stake: d('1'), legs: [leg('1.2345', 1), leg('1.5', 1)] }));
    expect(v.value).toEqual(d('1.85175'));
    expect(isVoided([])).toBe(false);
    expect(rational(1n)).toEqual(d('1'));
  });
});
