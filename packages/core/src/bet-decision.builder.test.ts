/** The one decision on a bet with bet builders (D59–D62; docs/adr/0043-bet-builder-bets.md). */
import { describe, expect, it } from 'vitest';
import type { BuilderQuote, BuilderResult } from './bet-builder/builder-types.js';
import { type BetDecisionInput, type DecisionSportEvent, decideBet } from './bet-decision.js';
import { add, formatMoney, formatOdds, parseDecimal, ZERO } from './decimal.js';

const d = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });
const open = (value: string) => ({ value, status: 0, is_active: true });

function event(id: string, betStop = false): DecisionSportEvent {
  return {
    id,
    bet_stop: betStop,
    fixture: { status: 0 },
    markets: {
      '1': { status: 0, type_id: 1, odds: { '1': open('2.1'), '2': open('3.4'), '3': open('3.6') } },
      '18': { status: 0, type_id: 18, odds: { '12': open('1.95'), '13': open('1.9') } },
    },
  };
}

const quote = (odds: string): BuilderResult<BuilderQuote> => ({
  ok: true,
  value: { odds: d(odds), fairOdds: d(odds), probability: d('0.3'), refundProbability: ZERO, legs: [] },
});

const LEGS = [
  { market_id: '1', odd_id: '1' },
  { market_id: '18', odd_id: '12' },
];

function input(
  over: Partial<BetDecisionInput['bet']> = {},
  rest: Partial<BetDecisionInput> = {},
): BetDecisionInput {
  const events = new Map([
    ['e1', event('e1')],
    ['e2', event('e2')],
    ['stopped', event('stopped', true)],
  ]);
  return {
    bet: {
      type: 'single',
      systemSizes: [],
      stake: d('10'),
      currency: 'EUR',
      oddsStrategy: 1,
      selections: [],
      builders: [{ sport_event_id: 'e1', legs: LEGS, odds: d('3.2') }],
      ...over,
    },
    event: (id) => events.get(id),
    whiteLabel: { betIntervalS: 0 },
    now: 0,
    lastBetAt: new Map(),
    expressCap: d('50000'),
    oddsTolerance: ZERO,
    risk: {
      exposure: new Map(),
      liabilityLimit: () => d('1000'),
      group: { name: 'default', stakeFactor: d('1') },
      eurRate: d('1'),
    },
    priceBuilder: () => quote('3.2'),
    ...rest,
  };
}

describe('decideBet with bet builders', () => {
  it('accepts a single builder at its repriced combined odds; each inner outcome bears the whole potential win', () => {
    const v = decideBet(input());
    expect(v.restrictions).toEqual([]);
    expect(formatOdds(v.totalOdds)).toBe('3.200000');
    expect(v.acceptedBuilderOdds.map(formatOdds)).toEqual(['3.200000']);
    expect(v.legs.map((l) => [l.outcome.market_id, l.unit, l.builder, formatMoney(l.exposure)])).toEqual([
      ['1', 0, 0, '22.000000'],
      ['18', 0, 0, '22.000000'],
    ]);
  });

  it('counts a builder as one selection of an express: total odds are the product, the builder part on its legs', () => {
    const v = decideBet(
      input({
        type: 'express',
        selections: [{ sport_event_id: 'e2', market_id: '1', odd_id: '1', odds: d('2.1') }],
      }),
    );
    expect(v.restrictions).toEqual([]);
    expect(formatOdds(v.totalOdds)).toBe('6.720000');
    const [plain, leg1, leg2] = v.legs;
    expect([plain?.unit, leg1?.unit, leg2?.unit]).toEqual([0, 1, 1]);
    expect(leg1?.exposure).toEqual(leg2?.exposure);
    // the selections' parts add up to the potential win (10 × 6.72 − 10), each inner leg showing its builder's part
    expect(formatMoney(add(plain?.exposure ?? ZERO, leg1?.exposure ?? ZERO))).toBe('57.200000');
  });

  it('declines a builder on an event the express already has, and a bet-stopped leg without pricing it', () => {
    let priced = 0;
    const same = decideBet(
      input({
        type: 'express',
        selections: [{ sport_event_id: 'e1', market_id: '18', odd_id: '13', odds: d('1.9') }],
      }),
    );
    expect(same.restrictions.map((r) => r.context)).toContainEqual(
      expect.objectContaining({ reason: 'selections_on_same_sport_event', sport_event_id: 'e1' }),
    );
    const stopped = decideBet(
      input(
        { builders: [{ sport_event_id: 'stopped', legs: LEGS, odds: d('3.2') }] },
        {
          priceBuilder: () => {
            priced += 1;
            return quote('3.2');
          },
        },
      ),
    );
    expect(stopped.restrictions.map((r) => r.type)).toEqual(['sport_event_bet_stop']);
    expect(priced).toBe(0);
  });

  it('declines a refused builder wl_defined with its reason, and moved combined odds by the strategy', () => {
    const refused = decideBet(
      input(
        {},
        {
          priceBuilder: () => ({
            ok: false,
            refusal: { code: 'contradictory', message: 'no final score wins every leg: a & b' },
          }),
        },
      ),
    );
    expect(refused.restrictions).toEqual([
      expect.objectContaining({
        type: 'wl_defined',
        context: expect.objectContaining({
          reason: 'contradictory',
          rule: 'bet builder 0: no final score wins every leg: a & b',
          sport_event_id: 'e1',
        }),
      }),
    ]);
    const moved = decideBet(input({}, { priceBuilder: () => quote('3.0') }));
    expect(moved.restrictions).toEqual([
      expect.objectContaining({
        type: 'selection_value',
        context: expect.objectContaining({ market_id: 'bet_builder', odd_id: '0', sport_event_id: 'e1' }),
      }),
    ]);
    const anyOdds = decideBet(input({ oddsStrategy: 3 }, { priceBuilder: () => quote('3.0') }));
    expect(anyOdds.restrictions).toEqual([]);
    expect(formatOdds(anyOdds.totalOdds)).toBe('3.000000');
  });

  it('limits the stake by the liability left on every inner outcome', () => {
    const v = decideBet(
      input(
        {},
        {
          risk: {
            exposure: new Map(),
            liabilityLimit: (type) => (type === '18' ? d('11') : d('1000')),
            group: { name: 'default', stakeFactor: d('1') },
            eurRate: d('1'),
          },
        },
      ),
    );
    // 11 EUR of liability left on the total's outcome, 2.2 per unit of stake: 5
    expect(formatMoney(v.maxBet ?? ZERO)).toBe('5.000000');
    expect(v.restrictions.map((r) => r.type)).toEqual(['max_bet']);
  });
});
