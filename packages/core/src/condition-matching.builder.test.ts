/**
 * Bonus conditions on bets carrying bet builders (the callback contract, "Freebet conditions"): each builder condition
 * accepts and refuses, for freebets, insurance and boosts alike.
 */
import { describe, expect, it } from 'vitest';
import type { BetType } from './bet-types.js';
import { boostRestrictions, freebetRestrictions, insuranceRestrictions } from './bonus-conditions.js';
import {
  type ConditionBet,
  type ConditionBetBuilder,
  type ConditionLeg,
  evaluateConditions,
} from './condition-matching.js';
import { parseConditions } from './conditions.js';
import { formatMoney, parseDecimal, type Rational } from './decimal.js';

const d = (s: string): Rational => parseDecimal(s, { field: 'x', maxDecimals: 20 });
const conds = (entries: Partial<Record<BetType, Record<string, unknown>>>) =>
  parseConditions([
    {
      type: 'bet_details',
      data: { bet_details: Object.entries(entries).map(([type, data]) => ({ type, data })) },
    },
  ]);
const leg = (over: Partial<ConditionLeg> = {}): ConditionLeg => ({
  odds: d('1.5'),
  sportId: 'football',
  tournamentId: 't1',
  sportEventId: 'e1',
  marketTypeId: '1',
  competitorIds: ['c1', 'c2'],
  ...over,
});
const builder = (odds: string, inner: string[], over: Partial<ConditionLeg> = {}): ConditionBetBuilder => ({
  ...leg({ odds: d(odds), sportEventId: 'b1', ...over }),
  innerCount: inner.length,
  innerMarketTypeIds: inner,
});
const bet = (
  betType: BetType,
  selections: ConditionLeg[],
  betBuilders: ConditionBetBuilder[] = [],
  systemSizes: number[] = [],
): ConditionBet => ({ betType, systemSizes, selections, betBuilders });

const singleBuilder = bet('single', [], [builder('4.2', ['1', '18', '29'])]);
const plainSingle = bet('single', [leg()]);
const expressWithBuilder = bet(
  'express',
  [leg({ odds: d('2'), sportEventId: 'e2' })],
  [builder('3', ['1', '18'])],
);
const plainExpress = bet('express', [leg({ sportEventId: 'e1' }), leg({ sportEventId: 'e2' })]);

describe('bet_builder_odds_count', () => {
  it('min 1 allows only bets with a builder', () => {
    const c = conds({
      single: { bet_builder_odds_count: { min: 1 } },
      express: { bet_builder_odds_count: { min: 1 } },
    });
    expect(evaluateConditions(c, singleBuilder).ok).toBe(true);
    expect(evaluateConditions(c, expressWithBuilder).ok).toBe(true);
    expect(evaluateConditions(c, plainSingle)).toMatchObject({
      ok: false,
      condition: 'bet_builder_odds_count',
    });
    expect(evaluateConditions(c, plainExpress)).toMatchObject({
      ok: false,
      condition: 'bet_builder_odds_count',
    });
  });

  it('max 0 excludes them', () => {
    const c = conds({
      single: { bet_builder_odds_count: { max: 0 } },
      express: { bet_builder_odds_count: { max: 0 } },
    });
    expect(evaluateConditions(c, plainSingle).ok).toBe(true);
    expect(evaluateConditions(c, plainExpress).ok).toBe(true);
    expect(evaluateConditions(c, singleBuilder)).toMatchObject({
      ok: false,
      condition: 'bet_builder_odds_count',
    });
    expect(evaluateConditions(c, expressWithBuilder)).toMatchObject({
      ok: false,
      condition: 'bet_builder_odds_count',
    });
  });

  it('a range counts the builders of the bet', () => {
    const c = conds({ express: { bet_builder_odds_count: { min: 2, max: 2 } } });
    const two = bet(
      'express',
      [],
      [builder('3', ['1', '18']), builder('2.5', ['29', '18'], { sportEventId: 'b2' })],
    );
    expect(evaluateConditions(c, two).ok).toBe(true);
    expect(evaluateConditions(c, expressWithBuilder)).toMatchObject({
      ok: false,
      condition: 'bet_builder_odds_count',
    });
  });
});

describe('bet_builder_inner_odds_count', () => {
  const c = conds({
    single: { bet_builder_inner_odds_count: { min: 2, max: 3 } },
    express: { bet_builder_inner_odds_count: { min: 3 } },
  });
  it('accepts a builder whose inner selections are in range', () => {
    expect(evaluateConditions(c, singleBuilder).ok).toBe(true);
  });
  it('refuses a builder with too many or too few inner selections (every builder must be in range)', () => {
    const four = bet('single', [], [builder('9', ['1', '18', '29', '10'])]);
    expect(evaluateConditions(c, four)).toMatchObject({
      ok: false,
      condition: 'bet_builder_inner_odds_count',
    });
    const twoBuilders = bet(
      'express',
      [],
      [builder('4', ['1', '18', '29']), builder('3', ['1', '18'], { sportEventId: 'b2' })],
    );
    expect(evaluateConditions(c, twoBuilders)).toMatchObject({
      ok: false,
      condition: 'bet_builder_inner_odds_count',
    });
  });
  it('a bet without a builder never matches', () => {
    expect(evaluateConditions(c, plainSingle)).toMatchObject({
      ok: false,
      condition: 'bet_builder_inner_odds_count',
    });
    expect(evaluateConditions(c, plainExpress)).toMatchObject({
      ok: false,
      condition: 'bet_builder_inner_odds_count',
    });
  });
});

describe('odds_coefficient on the combined builder odds', () => {
  const c = conds({
    single: { odds_coefficient: { min: '2', max: '5' } },
    express: { odds_coefficient: { min: '1.8' } },
  });
  it('accepts a builder whose combined odds are in range', () => {
    expect(evaluateConditions(c, singleBuilder).ok).toBe(true);
    expect(evaluateConditions(c, expressWithBuilder).ok).toBe(true);
  });
  it('refuses a builder whose combined odds are out of range, whatever its inner odds', () => {
    expect(evaluateConditions(c, bet('single', [], [builder('5.01', ['1', '18'])]))).toMatchObject({
      ok: false,
      condition: 'odds_coefficient',
    });
    expect(evaluateConditions(c, bet('single', [], [builder('1.99', ['1', '18'])]))).toMatchObject({
      condition: 'odds_coefficient',
    });
  });
  it('still checks the plain selections beside a builder', () => {
    const low = bet('express', [leg({ odds: d('1.5'), sportEventId: 'e2' })], [builder('3', ['1', '18'])]);
    expect(evaluateConditions(c, low)).toMatchObject({ ok: false, condition: 'odds_coefficient' });
  });
});

describe('other conditions see a builder as one leg at its combined odds', () => {
  it('odds_count counts a builder once', () => {
    const c = conds({ express: { odds_count: { max: 2 } } });
    expect(evaluateConditions(c, expressWithBuilder).ok).toBe(true);
    const three = bet(
      'express',
      [leg({ sportEventId: 'e2' }), leg({ sportEventId: 'e3' })],
      [builder('3', ['1', '18'])],
    );
    expect(evaluateConditions(c, three)).toMatchObject({ ok: false, condition: 'odds_count' });
  });
  it('total_odds_coefficient multiplies the combined odds', () => {
    const c = conds({ express: { total_odds_coefficient: { min: '6', max: '6' } } });
    expect(evaluateConditions(c, expressWithBuilder).ok).toBe(true); // 2 × 3
    const c2 = conds({ express: { total_odds_coefficient: { min: '6.01' } } });
    expect(evaluateConditions(c2, expressWithBuilder)).toMatchObject({ condition: 'total_odds_coefficient' });
  });
  it('market_types: every inner market type must be listed', () => {
    const c = conds({ single: { market_types: [1, 18, 29] } });
    expect(evaluateConditions(c, singleBuilder).ok).toBe(true);
    const c2 = conds({ single: { market_types: [1, 18] } });
    expect(evaluateConditions(c2, singleBuilder)).toMatchObject({ ok: false, condition: 'market_types' });
  });
  it('sport_event: the builder is on its one sport event', () => {
    expect(evaluateConditions(conds({ single: { sport_event: ['b1'] } }), singleBuilder).ok).toBe(true);
    expect(evaluateConditions(conds({ single: { sport_event: ['e1'] } }), singleBuilder)).toMatchObject({
      condition: 'sport_event',
    });
  });
});

describe('freebets, insurance and boosts use the same matching', () => {
  const conditions = conds({ single: { bet_builder_odds_count: { min: 1 } } });
  const facts = (b: ConditionBet) => ({ ...b, stake: d('10'), currency: 'EUR' });
  it('freebet', () => {
    const terms = { id: 'f1', currency: 'EUR', amount: d('10'), conditions };
    expect(freebetRestrictions(terms, facts(singleBuilder), formatMoney)).toEqual([]);
    expect(freebetRestrictions(terms, facts(plainSingle), formatMoney)).toMatchObject([
      { type: 'freebet_not_applicable', context: { condition: 'bet_builder_odds_count' } },
    ]);
  });
  it('insurance', () => {
    const terms = { id: 'i1', currency: 'EUR', conditions };
    expect(insuranceRestrictions(terms, facts(singleBuilder))).toEqual([]);
    expect(insuranceRestrictions(terms, facts(plainSingle))).toMatchObject([
      { type: 'insurance_not_applicable', context: { condition: 'bet_builder_odds_count' } },
    ]);
  });
  it('boost', () => {
    const terms = { id: 'b1', conditions };
    expect(boostRestrictions(terms, facts(singleBuilder))).toEqual([]);
    expect(boostRestrictions(terms, facts(plainSingle))).toMatchObject([
      { type: 'bonus_not_applicable', context: { reason: 'bet_builder_odds_count' } },
    ]);
  });
});
