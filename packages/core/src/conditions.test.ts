import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectFieldError } from '../test/helpers.js';
import type { BetType } from './bet-types.js';
import {
  boostRestrictions,
  freebetRestrictions,
  insuranceRestrictions,
  parseBoostMultiplier,
} from './bonus-conditions.js';
import {
  type ConditionBet,
  type ConditionLeg,
  conditionTotalOdds,
  evaluateConditions,
} from './condition-matching.js';
import { ANY_BET, parseConditions, parseValueRange } from './conditions.js';
import { formatMoney, parseDecimal, type Rational } from './decimal.js';
import { exactPayout } from './settlement.js';

const d = (s: string): Rational => parseDecimal(s, { field: 'x', maxDecimals: 20 });

/** Conditions in the spec 01 wire shape with one entry per listed bet type. */
const wire = (entries: Partial<Record<BetType, Record<string, unknown>>>) => [
  {
    type: 'bet_details',
    data: { bet_details: Object.entries(entries).map(([type, data]) => ({ type, data })) },
  },
];
const conds = (entries: Partial<Record<BetType, Record<string, unknown>>>) => parseConditions(wire(entries));

const leg = (over: Partial<ConditionLeg> = {}): ConditionLeg => ({
  odds: d('1.5'),
  sportId: 'football',
  tournamentId: 't1',
  sportEventId: 'e1',
  marketTypeId: '1',
  competitorIds: ['c1', 'c2'],
  ...over,
});
const single = (over: Partial<ConditionLeg> = {}): ConditionBet => ({
  betType: 'single',
  systemSizes: [],
  selections: [leg(over)],
});
const express = (...odds: string[]): ConditionBet => ({
  betType: 'express',
  systemSizes: [],
  selections: odds.map((o, i) => leg({ odds: d(o), sportEventId: `e${i + 1}` })),
});
const system = (sizes: number[], ...odds: string[]): ConditionBet => ({
  ...express(...odds),
  betType: 'system',
  systemSizes: sizes,
});

describe('conditions: parsing (spec 01 "Freebet conditions")', () => {
  it('reads the nested bet_details form, one entry per bet type', () => {
    const c = conds({
      single: { odds_coefficient: { min: '1.5' } },
      express: { odds_count: { min: 2, max: 4 } },
    });
    expect(Object.keys(c.byType).sort()).toEqual(['express', 'single']);
    expect(c.byType.single?.odds.odds_coefficient?.min).toEqual(d('1.5'));
    expect(c.byType.express?.counts.odds_count).toEqual({ min: 2, max: 4 });
  });

  it('allows an entry without conditions (the bet type alone)', () => {
    const c = parseConditions([{ type: 'bet_details', data: { bet_details: [{ type: 'system' }] } }]);
    expect(evaluateConditions(c, system([2], '2', '2', '2'))).toEqual({ ok: true });
    expect(evaluateConditions(c, single())).toMatchObject({ ok: false, condition: 'type' });
  });

  it('requires at least one condition when asked (freebets)', () => {
    expectFieldError(() => parseConditions([], { required: true }), 'conditions', 'at least one');
    expectFieldError(() => parseConditions(undefined, { required: true }), 'conditions');
    expect(parseConditions(undefined)).toBe(ANY_BET);
  });

  it.each([
    ['single', 'odds_count', { min: 1 }],
    ['single', 'total_odds_coefficient', { min: '2' }],
    ['single', 'system_size', { min: 1 }],
    ['single', 'combinations_count', { min: 1 }],
    ['express', 'system_size', { max: 2 }],
    ['express', 'combinations_count', { max: 2 }],
  ] as const)('rejects %s with %s at creation, naming the condition', (type, name, range) => {
    const err = expectFieldError(
      () => parseConditions(wire({ [type]: { [name]: range } })),
      `conditions[0].data.bet_details[0].data.${name}`,
      `does not apply to a ${type} bet`,
    );
    expect(err.message).toContain(name);
  });

  it('rejects malformed conditions, naming the field', () => {
    const f = 'conditions[0].data.bet_details[0]';
    expectFieldError(
      () => parseConditions(wire({ single: { odds: { min: 1 } } })),
      `${f}.data.odds`,
      'not a condition',
    );
    expectFieldError(
      () => parseConditions(wire({ express: { odds_count: { min: 3, max: 2 } } })),
      `${f}.data.odds_count`,
    );
    expectFieldError(() => parseConditions(wire({ express: { odds_count: {} } })), `${f}.data.odds_count`);
    expectFieldError(
      () => parseConditions(wire({ express: { odds_count: { min: -1 } } })),
      `${f}.data.odds_count.min`,
    );
    expectFieldError(
      () => parseConditions(wire({ express: { odds_count: { min: 1.5 } } })),
      `${f}.data.odds_count.min`,
    );
    expectFieldError(
      () => parseConditions(wire({ single: { odds_coefficient: { min: 1.5 } } })),
      `${f}.data.odds_coefficient.min`,
      'decimal string',
    );
    expectFieldError(
      () => parseConditions(wire({ single: { odds_coefficient: { min: '0.5' } } })),
      `${f}.data.odds_coefficient.min`,
      'at least 1',
    );
    expectFieldError(() => parseConditions(wire({ single: { sport: [] } })), `${f}.data.sport`);
    expectFieldError(() => parseConditions(wire({ single: { sport: [''] } })), `${f}.data.sport[0]`);
    expectFieldError(
      () => parseConditions([{ type: 'bet_details', data: { bet_details: [{ type: 'parlay' }] } }]),
      `${f}.type`,
    );
    expectFieldError(
      () =>
        parseConditions([
          { type: 'bet_details', data: { bet_details: [{ type: 'single' }, { type: 'single' }] } },
        ]),
      'conditions[0].data.bet_details[1].type',
      'twice',
    );
    expectFieldError(
      () => parseConditions([{ type: 'sport', data: {} }]),
      'conditions[0].type',
      'bet_details',
    );
    expectFieldError(() => parseConditions({ type: 'bet_details' }), 'conditions');
    expectFieldError(
      () => parseConditions([{ type: 'bet_details', data: { bet_details: [] } }]),
      'conditions[0].data.bet_details',
    );
  });
});

describe('conditions: each condition accepts and rejects (spec 01)', () => {
  it('type: only the bet types with an entry', () => {
    const c = conds({ express: {} });
    expect(evaluateConditions(c, express('1.5', '2'))).toEqual({ ok: true });
    expect(evaluateConditions(c, single())).toMatchObject({ ok: false, condition: 'type' });
  });

  it('odds_count: selections in range', () => {
    const c = conds({ express: { odds_count: { min: 3, max: 4 } } });
    expect(evaluateConditions(c, express('1.5', '1.5', '1.5')).ok).toBe(true);
    expect(evaluateConditions(c, express('1.5', '1.5'))).toMatchObject({
      ok: false,
      condition: 'odds_count',
    });
    expect(evaluateConditions(c, express('1.5', '1.5', '1.5', '1.5', '1.5'))).toMatchObject({
      condition: 'odds_count',
    });
  });

  it('bet_builder_odds_count: max 0 excludes bet builders, min 1 requires one', () => {
    const none = conds({ single: { bet_builder_odds_count: { max: 0 } } });
    const some = conds({ single: { bet_builder_odds_count: { min: 1 } } });
    const withBuilder: ConditionBet = {
      ...single(),
      selections: [],
      betBuilders: [{ ...leg(), innerCount: 3 }],
    };
    expect(evaluateConditions(none, single()).ok).toBe(true);
    expect(evaluateConditions(none, withBuilder)).toMatchObject({ condition: 'bet_builder_odds_count' });
    expect(evaluateConditions(some, withBuilder).ok).toBe(true);
    expect(evaluateConditions(some, single())).toMatchObject({ condition: 'bet_builder_odds_count' });
  });

  it('bet_builder_inner_odds_count: inner selections in range; a bet without a bet builder never matches', () => {
    const c = conds({ single: { bet_builder_inner_odds_count: { min: 2, max: 3 } } });
    const builder = (innerCount: number): ConditionBet => ({
      ...single(),
      selections: [],
      betBuilders: [{ ...leg({ odds: d('4') }), innerCount }],
    });
    expect(evaluateConditions(c, builder(3)).ok).toBe(true);
    expect(evaluateConditions(c, builder(4))).toMatchObject({ condition: 'bet_builder_inner_odds_count' });
    expect(evaluateConditions(c, single())).toMatchObject({ condition: 'bet_builder_inner_odds_count' });
  });

  it('total_odds_coefficient: product of an express, payout per unit of a system', () => {
    const c = conds({
      express: { total_odds_coefficient: { min: '3', max: '10' } },
      system: { total_odds_coefficient: { min: '4' } },
    });
    expect(evaluateConditions(c, express('2', '1.5')).ok).toBe(true); // 3, the bound is inclusive
    expect(evaluateConditions(c, express('2', '1.49'))).toMatchObject({
      condition: 'total_odds_coefficient',
    });
    expect(evaluateConditions(c, express('4', '3'))).toMatchObject({ condition: 'total_odds_coefficient' });
    // system 2/3 of odds 2: each double 4 → total 4
    expect(evaluateConditions(c, system([2], '2', '2', '2')).ok).toBe(true);
    expect(evaluateConditions(c, system([2], '2', '2', '1.9'))).toMatchObject({
      condition: 'total_odds_coefficient',
    });
  });

  it('system_size: the number of sizes (S[2,3] has size 2, S[2] has size 1)', () => {
    const c = conds({ system: { system_size: { min: 2 } } });
    expect(evaluateConditions(c, system([2, 3], '2', '2', '2')).ok).toBe(true);
    expect(evaluateConditions(c, system([2], '2', '2', '2'))).toMatchObject({ condition: 'system_size' });
  });

  it('combinations_count: combinations of the system', () => {
    const c = conds({ system: { combinations_count: { max: 4 } } });
    expect(evaluateConditions(c, system([2, 3], '2', '2', '2')).ok).toBe(true); // trixie: 4
    expect(evaluateConditions(c, system([2, 3], '2', '2', '2', '2'))).toMatchObject({
      condition: 'combinations_count',
    }); // 10
  });

  it('odds_coefficient: every selection; a bet builder by its combined odds', () => {
    const c = conds({
      single: { odds_coefficient: { min: '1.5', max: '3' } },
      express: { odds_coefficient: { min: '1.5' } },
    });
    expect(evaluateConditions(c, single({ odds: d('1.5') })).ok).toBe(true);
    expect(evaluateConditions(c, single({ odds: d('3.01') }))).toMatchObject({
      condition: 'odds_coefficient',
    });
    expect(evaluateConditions(c, express('1.6', '1.4'))).toMatchObject({ condition: 'odds_coefficient' });
    const builder: ConditionBet = {
      ...single(),
      selections: [],
      betBuilders: [{ ...leg({ odds: d('2.5') }), innerCount: 3 }],
    };
    expect(evaluateConditions(c, builder).ok).toBe(true);
  });

  it.each([
    ['sport', { sportId: 'football' }, { sportId: 'tennis' }, ['football']],
    ['tournament', { tournamentId: 't1' }, { tournamentId: 't2' }, ['t1']],
    ['sport_event', { sportEventId: 'e1' }, { sportEventId: 'e9' }, ['e1']],
    ['market_types', { marketTypeId: '1' }, { marketTypeId: '18' }, [1]],
    ['competitor', { competitorIds: ['c9', 'c1'] }, { competitorIds: ['c8', 'c9'] }, ['c1']],
  ] as const)('%s: every leg must match the list', (name, good, bad, list) => {
    const c = conds({ single: { [name]: list }, express: { [name]: list } });
    expect(evaluateConditions(c, single(good)).ok).toBe(true);
    expect(evaluateConditions(c, single(bad))).toMatchObject({ ok: false, condition: name });
    const mixed: ConditionBet = { betType: 'express', systemSizes: [], selections: [leg(good), leg(bad)] };
    expect(evaluateConditions(c, mixed)).toMatchObject({ ok: false, condition: name });
  });

  it('total odds of a system equal the core payout per unit of stake (property)', () => {
    const odds = fc.array(fc.integer({ min: 100, max: 1000 }), { minLength: 3, maxLength: 7 });
    fc.assert(
      fc.property(odds, fc.integer({ min: 2, max: 7 }), (raw, k) => {
        const o = raw.map((x) => d((x / 100).toString()));
        const size = Math.min(k, o.length);
        const viaCore = exactPayout({
          betType: 'system',
          stake: d('1'),
          legs: o.map((x) => ({ odds: x, status: 1 as const })),
          systemSizes: [size],
          expressCap: d('1000000000000'),
        }).value;
        expect(conditionTotalOdds('system', o, [size])).toEqual(viaCore);
      }),
      { numRuns: 50 },
    );
  });
});

describe('bonus applicability (restrictions of spec 01)', () => {
  const bet = { ...express('2', '2'), stake: d('10'), currency: 'EUR' };
  const c = conds({ express: { odds_count: { max: 2 } } });

  it('freebet: currency (freebet_not_applicable), amount (freebet_amount), conditions', () => {
    const terms = { id: 'f1', currency: 'EUR', amount: d('10'), conditions: c };
    expect(freebetRestrictions(terms, bet, formatMoney)).toEqual([]);
    expect(freebetRestrictions({ ...terms, currency: 'USD' }, bet, formatMoney)).toEqual([
      { type: 'freebet_not_applicable', context: { freebet_id: 'f1', condition: 'currency_code' } },
    ]);
    expect(freebetRestrictions({ ...terms, amount: d('5') }, bet, formatMoney)).toEqual([
      {
        type: 'freebet_amount',
        context: { freebet_id: 'f1', freebet_amount: '5.000000', stake: '10.000000' },
      },
    ]);
    const three = { ...express('2', '2', '2'), stake: d('10'), currency: 'EUR' };
    expect(freebetRestrictions(terms, three, formatMoney)).toEqual([
      { type: 'freebet_not_applicable', context: { freebet_id: 'f1', condition: 'odds_count' } },
    ]);
  });

  it('insurance: currency, freebet bets, conditions (insurance_not_applicable); stake range (insurance_value)', () => {
    const terms = {
      id: 'i1',
      currency: 'EUR',
      conditions: c,
      stakeAmountRange: parseValueRange({ min: '5', max: '10' }, 'r', { maxDecimals: 6 }),
    };
    expect(insuranceRestrictions(terms, bet)).toEqual([]);
    expect(insuranceRestrictions({ ...terms, currency: 'GBP' }, bet)).toEqual([
      { type: 'insurance_not_applicable', context: { insurance_id: 'i1', condition: 'currency_code' } },
    ]);
    expect(insuranceRestrictions(terms, { ...bet, freebet: true })).toEqual([
      { type: 'insurance_not_applicable', context: { insurance_id: 'i1', condition: 'freebet' } },
    ]);
    expect(insuranceRestrictions(terms, { ...bet, betType: 'single', selections: [leg()] })).toEqual([
      { type: 'insurance_not_applicable', context: { insurance_id: 'i1', condition: 'type' } },
    ]);
    expect(insuranceRestrictions(terms, { ...bet, stake: d('10.000001') })).toEqual([
      { type: 'insurance_value', context: { insurance_id: 'i1', reason: 'stake_amount_range' } },
    ]);
    expect(insuranceRestrictions(terms, { ...bet, stake: d('4.99') })[0]?.type).toBe('insurance_value');
  });

  it('boost: a failing condition is bonus_not_applicable', () => {
    expect(boostRestrictions({ id: 'b1', conditions: c }, bet)).toEqual([]);
    expect(boostRestrictions({ id: 'b1', conditions: conds({ single: {} }) }, bet)).toEqual([
      { type: 'bonus_not_applicable', context: { bonus_id: 'b1', reason: 'type' } },
    ]);
  });

  it('boost multiplier: above 1, at most 100, 6 decimals', () => {
    expect(parseBoostMultiplier('1.1')).toEqual(d('1.1'));
    expectFieldError(() => parseBoostMultiplier('1'), 'multiplier', 'above 1');
    expectFieldError(() => parseBoostMultiplier('100.5'), 'multiplier', 'at most 100');
    expectFieldError(() => parseBoostMultiplier('1.0000001'), 'multiplier', 'decimals');
    expectFieldError(() => parseBoostMultiplier(1.5), 'multiplier', 'decimal string');
  });

  it('stake ranges are money ranges', () => {
    expectFieldError(
      () => parseValueRange({ min: '1.0000001' }, 'stake_amount_range', { maxDecimals: 6 }),
      'stake_amount_range.min',
    );
    expectFieldError(
      () => parseValueRange({ min: '5', max: '1' }, 'stake_amount_range', { maxDecimals: 6 }),
      'stake_amount_range',
    );
    expectFieldError(
      () => parseValueRange({ low: '5' }, 'stake_amount_range', { maxDecimals: 6 }),
      'stake_amount_range.low',
    );
  });
});
