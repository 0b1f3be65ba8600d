import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import {
  assertBetShape,
  betTypeFromCallbackCode,
  betTypeFromMtsCode,
  binomial,
  callbackBetTypeCode,
  combinationCount,
  combinations,
  isBetType,
  MAX_SYSTEM_COMBINATIONS,
  mtsBetTypeCode,
  mtsSystemSizes,
  readMtsType,
  systemCombinations,
  validateBetType,
} from './bet-types.js';

const sel = (...ids: string[]) => ids.map((sport_event_id) => ({ sport_event_id }));

describe('codes (DECISIONS D2, spec 03 type rules)', () => {
  it('maps callback and MTS codes both ways', () => {
    expect(['single', 'express', 'system'].map((t) => callbackBetTypeCode(t as 'single'))).toEqual([1, 2, 3]);
    expect(['single', 'express', 'system'].map((t) => mtsBetTypeCode(t as 'single'))).toEqual([0, 1, 2]);
    expect([1, 2, 3].map((c) => betTypeFromCallbackCode(c))).toEqual(['single', 'express', 'system']);
    expect([0, 1, 2].map((c) => betTypeFromMtsCode(c))).toEqual(['single', 'express', 'system']);
    expectFieldError(() => betTypeFromCallbackCode(0), 'bet_type');
    expectFieldError(() => betTypeFromMtsCode('1'), 'type.code');
    expect(isBetType('express')).toBe(true);
    expect(isBetType('combo')).toBe(false);
  });

  it('system_sizes per type', () => {
    expect(mtsSystemSizes('single', 1)).toEqual([1]);
    expect(mtsSystemSizes('express', 4)).toEqual([4]);
    expect(mtsSystemSizes('system', 4, [3, 2])).toEqual([2, 3]);
  });

  it('reads an MTS type object; only a malformed one is refused', () => {
    expect(readMtsType({ code: 0, system_sizes: [1] })).toEqual({
      betType: 'single',
      systemSizes: [],
      typeSizes: [1],
    });
    expect(readMtsType({ code: 1, system_sizes: [3] })).toEqual({
      betType: 'express',
      systemSizes: [],
      typeSizes: [3],
    });
    expect(readMtsType({ code: 2, system_sizes: [2, 3] })).toEqual({
      betType: 'system',
      systemSizes: [2, 3],
      typeSizes: [2, 3],
    });
    // a type that does not fit the selections is read: the decision declines it bet_type
    expect(readMtsType({ code: 2, system_sizes: [1, 1] }).systemSizes).toEqual([1, 1]);
    expectFieldError(() => readMtsType({ code: 3, system_sizes: [1] }), 'type.code');
    expectFieldError(() => readMtsType({ code: 2, system_sizes: 'x' }), 'type.system_sizes');
    expectFieldError(() => readMtsType({ code: 2, system_sizes: [2.5] }), 'type.system_sizes');
  });
});

describe('combinations (DECISIONS D15)', () => {
  it('binomial', () => {
    expect([binomial(4, 2), binomial(6, 3), binomial(5, 0), binomial(3, 4), binomial(52, 5)]).toEqual([
      6, 20, 1, 0, 2598960,
    ]);
    expect(() => binomial(100, 50)).toThrow(RangeError);
  });

  it('enumerates index arrays in lexicographic order', () => {
    expect(combinations(3, 2)).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(combinations(2, 3)).toEqual([]);
    expect(systemCombinations(3, [3, 2])).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
      [0, 1, 2],
    ]);
  });

  it.each([
    [3, [2, 3], 4],
    [4, [2, 3, 4], 11],
    [5, [2, 3, 4, 5], 26],
    [6, [2, 3, 4, 5, 6], 57],
    [8, [2, 3, 4, 5, 6, 7, 8], 247],
  ])('N(%i, %j) = %i', (n, sizes, count) => {
    expect(combinationCount(n, sizes)).toBe(count);
    expect(systemCombinations(n, sizes)).toHaveLength(count);
  });
});

describe('validateBetType (spec 01 "Bet types", spec 03)', () => {
  it('accepts valid bets', () => {
    expect(validateBetType({ type: 'single', selections: sel('a') })).toEqual([]);
    expect(validateBetType({ type: 'express', selections: sel('a', 'b') })).toEqual([]);
    expect(validateBetType({ type: 'system', selections: sel('a', 'b', 'c'), systemSizes: [2, 3] })).toEqual(
      [],
    );
  });

  it('single needs exactly one selection', () => {
    expect(validateBetType({ type: 'single', selections: sel('a', 'b') })).toEqual([
      {
        type: 'bet_type',
        context: { bet_type: 'single', reason: 'single_needs_one_selection', sport_event_id: 'a' },
      },
    ]);
  });

  it('express needs two selections on distinct sport events', () => {
    expect(validateBetType({ type: 'express', selections: sel('a') }).map((r) => r.context.reason)).toEqual([
      'express_needs_two_selections',
    ]);
    expect(validateBetType({ type: 'express', selections: sel('a', 'b', 'a') })).toEqual([
      {
        type: 'bet_type',
        context: { bet_type: 'express', reason: 'selections_on_same_sport_event', sport_event_id: 'a' },
      },
    ]);
  });

  it('an MTS or advisory type carries [1] for a single and [n] for an express', () => {
    const check = (type: 'single' | 'express' | 'system', ids: string[], typeSizes: number[]) =>
      validateBetType({
        type,
        selections: sel(...ids),
        typeSizes,
        ...(type === 'system' ? { systemSizes: typeSizes } : {}),
      });
    expect(check('single', ['a'], [1])).toEqual([]);
    expect(check('express', ['a', 'b', 'c'], [3])).toEqual([]);
    expect(check('system', ['a', 'b', 'c'], [2, 3])).toEqual([]);
    expect(check('single', ['a'], [])).toEqual([
      {
        type: 'bet_type',
        context: { bet_type: 'single', reason: 'system_sizes_mismatch', expected_system_sizes: [1] },
      },
    ]);
    expect(check('express', ['a', 'b'], [3])).toEqual([
      {
        type: 'bet_type',
        context: { bet_type: 'express', reason: 'system_sizes_mismatch', expected_system_sizes: [2] },
      },
    ]);
    expect(check('single', ['a', 'b'], [1]).map((r) => r.context.reason)).toEqual([
      'single_needs_one_selection',
    ]);
    expect(check('express', ['a', 'a'], [2, 2]).map((r) => r.context.reason)).toEqual([
      'selections_on_same_sport_event',
      'system_sizes_mismatch',
    ]);
    // without typeSizes (a frame bet) the sizes of a single or an express are not looked at
    expect(validateBetType({ type: 'express', selections: sel('a', 'b') })).toEqual([]);
  });

  it('system sizes must be distinct and in 2..n; all failures are returned', () => {
    const reasons = (sizes: number[], ids = sel('a', 'b', 'c')) =>
      validateBetType({ type: 'system', selections: ids, systemSizes: sizes }).map((r) => r.context.reason);
    expect(reasons([])).toEqual(['system_sizes_missing']);
    expect(reasons([1])).toEqual(['system_size_out_of_range']);
    expect(reasons([4])).toEqual(['system_size_out_of_range']);
    expect(reasons([2, 2])).toEqual(['system_sizes_not_distinct']);
    expect(reasons([2.5])).toEqual(['system_size_out_of_range']);
    expect(reasons([2, 2, 5], sel('a', 'a', 'c'))).toEqual([
      'selections_on_same_sport_event',
      'system_size_out_of_range',
      'system_sizes_not_distinct',
    ]);
    const many = sel(...Array.from({ length: 20 }, (_, i) => `e${i}`));
    const all = Array.from({ length: 19 }, (_, i) => i + 2);
    expect(reasons(all, many)).toEqual(['too_many_combinations']);
    expect(combinationCount(20, all)).toBeGreaterThan(MAX_SYSTEM_COMBINATIONS);
  });

  it('bounds a system of any size by its number of combinations, never overflowing', () => {
    const sizes = Array.from({ length: 99 }, (_, i) => i + 2);
    const selections = Array.from({ length: 100 }, (_, i) => ({ sport_event_id: `e${i}` }));
    expect(
      validateBetType({ type: 'system', selections, systemSizes: sizes }).map((r) => r.context.reason),
    ).toEqual(['too_many_combinations']);
    expect(() => assertBetShape('system', 100, [50])).toThrow(/limit/);
    expect(
      validateBetType({
        type: 'system',
        selections: selections.slice(0, 4),
        systemSizes: [2],
        maxCombinations: 5,
      }),
    ).toEqual([
      {
        type: 'bet_type',
        context: { bet_type: 'system', reason: 'too_many_combinations', max_combinations: 5 },
      },
    ]);
  });

  it('assertBetShape names the field', () => {
    expectFieldError(() => assertBetShape('system', 3, [2, 2]), 'system_sizes[1]', 'repeated');
    expectFieldError(
      () =>
        assertBetShape(
          'system',
          20,
          Array.from({ length: 19 }, (_, i) => i + 2),
        ),
      'system_sizes',
      'limit',
    );
    expect(() => assertBetShape('express', 2, undefined)).not.toThrow();
  });
});
