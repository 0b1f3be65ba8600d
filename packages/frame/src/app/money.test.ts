import { describe, expect, it } from 'vitest';
import { afterCashOut, money, partOfStake, sameAmount, stakeInPlay } from './money.js';

describe('money as the player reads it', () => {
  it("shows the currency's minor units, rounding half away from zero on the digits, never through a float", () => {
    expect(money('13.458000')).toBe('13.46');
    expect(money('13.454999', 'EUR')).toBe('13.45');
    expect(money('10.000000')).toBe('10.00');
    expect(money('0.5')).toBe('0.50');
    expect(money('7')).toBe('7.00');
    expect(money('123456789012345678.125000')).toBe('123456789012345678.13');
    expect(money('0.000001')).toBe('0.00');
    expect(money('-2.100000')).toBe('-2.10');
    expect(money('-0.001')).toBe('0.00');
    expect(money('1500.5', 'JPY')).toBe('1501');
    expect(money('1.2345', 'BHD')).toBe('1.235');
  });
  it('shows anything else as it came', () => {
    expect(money('1e3')).toBe('1e3');
    expect(money('')).toBe('');
  });
});

describe('the partial cash-out slider', () => {
  it('takes percent of the remaining stake, rounded down to cents', () => {
    expect(partOfStake('10.000000', 40)).toBe('4.00');
    expect(partOfStake('7.500000', 33)).toBe('2.47');
    expect(partOfStake('0.990000', 1)).toBe(undefined); // 0.0099 rounds down to nothing
    expect(partOfStake('100', 99)).toBe('99.00');
  });
  it('never gives all of it, nothing, or an amount from a bad position', () => {
    expect(partOfStake('0.01', 99)).toBe(undefined);
    expect(partOfStake('10', 0)).toBe(undefined);
    expect(partOfStake('10', 100)).toBe(undefined);
    expect(partOfStake('10', 12.5)).toBe(undefined);
    expect(partOfStake('ten', 50)).toBe(undefined);
  });
  it('compares amounts, not strings', () => {
    expect(sameAmount('4.00', '4.000000')).toBe(true);
    expect(sameAmount('4.01', '4.000000')).toBe(false);
    expect(sameAmount('x', '4')).toBe(false);
  });
});

describe('the stake in play', () => {
  it('is the stake less what cash-outs took, exactly, with 6 decimals', () => {
    expect(stakeInPlay('10.000000', '4.000000')).toBe('6.000000');
    expect(stakeInPlay('10.000000', '0.000000')).toBe('10.000000');
    expect(stakeInPlay('0.3', '0.1')).toBe('0.200000');
    expect(stakeInPlay('5.000000', '5.000000')).toBe('0.000000');
  });
  it('is the stake as it came when an amount is not a plain decimal', () => {
    expect(stakeInPlay('10.000000', 'x')).toBe('10.000000');
  });
});

describe('a bet after an accepted cash-out order', () => {
  const bet = { status: 1, state: 'accepted', cashed_out_stake: '4.000000', cashed_out_refund: '5.120000' };

  it('adds the order exactly; a full one ends the bet cashed out', () => {
    expect(afterCashOut(bet, { amount: '2.5', refund: '3.333333', full: false })).toEqual({
      status: 1,
      state: 'accepted',
      cashed_out_stake: '6.500000',
      cashed_out_refund: '8.453333',
    });
    expect(afterCashOut(bet, { amount: '6.000000', refund: '7.680001', full: true })).toEqual({
      status: 7,
      state: 'cashed_out',
      cashed_out_stake: '10.000000',
      cashed_out_refund: '12.800001',
    });
  });

  it('leaves a bet whose amounts are not plain decimals as it came', () => {
    expect(afterCashOut(bet, { amount: 'n/a', refund: '1', full: true })).toBe(bet);
  });
});
