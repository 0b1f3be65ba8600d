/** The one decision (D35, D37, D38): integrity, limits, risk groups, the largest acceptable stake. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BetDecisionInput,
  betTotalOdds,
  type DecisionSportEvent,
  decideBet,
  outcomeKey,
  type RiskState,
  withinExposureBounds,
} from './bet-decision.js';
import {
  add,
  compare,
  formatFeedOddValue,
  formatMoney,
  mul,
  ONE,
  parseDecimal,
  type Rational,
  rational,
  sub,
  ZERO,
} from './decimal.js';
import { exactPayout } from './settlement.js';

const d = (s: string) => parseDecimal(s, { field: 'x', maxDecimals: 12 });

function event(
  id: string,
  status = 0,
  odds: Record<string, string> = { '1': '2.000000000000', '2': '3.000000000000' },
) {
  return {
    id,
    bet_stop: false,
    fixture: { status },
    markets: {
      m1: {
        status: 0,
        type_id: 1,
        odds: Object.fromEntries(
          Object.entries(odds).map(([k, v]) => [k, { value: v, status: 0, is_active: true }]),
        ),
      },
    },
  } satisfies DecisionSportEvent;
}

function risk(over: Partial<RiskState> = {}, limit = '1000'): RiskState {
  return {
    exposure: new Map(),
    liabilityLimit: () => d(limit),
    group: { name: 'default', stakeFactor: d('1') },
    eurRate: d('1'),
    ...over,
  };
}

function input(over: Partial<BetDecisionInput> = {}, stake: string | null = '10'): BetDecisionInput {
  const events = new Map([
    ['e1', event('e1')],
    ['e2', event('e2', 1)],
  ]);
  return {
    bet: {
      type: 'single',
      systemSizes: [],
      ...(stake !== null ? { stake: d(stake) } : {}),
      currency: 'EUR',
      oddsStrategy: 1,
      selections: [{ sport_event_id: 'e1', market_id: 'm1', odd_id: '1', odds: d('2') }],
    },
    event: (id) => events.get(id),
    whiteLabel: { betIntervalS: 0 },
    now: 0,
    lastBetAt: new Map(),
    expressCap: d('50000'),
    oddsTolerance: ZERO,
    risk: risk(),
    ...over,
  };
}

const key = (phase: 'live' | 'prematch', se: string, odd = '1') =>
  outcomeKey({ phase, sport_event_id: se, market_id: 'm1', odd_id: odd });

describe('decideBet', () => {
  it('accepts within the limit and reports the exposure the bet adds', () => {
    const out = decideBet(input());
    expect(out.restrictions).toEqual([]);
    expect(out.maxBet).toEqual(d('1000'));
    expect(out.legs.map((l) => formatMoney(l.exposure))).toEqual(['10.000000']);
    expect(out.legs[0]?.outcome.phase).toBe('prematch');
  });

  it('declines max_bet with the exact remaining stake, and accepts that stake', () => {
    const exposure = new Map([[key('prematch', 'e1'), d('999.5')]]);
    const r = risk({ exposure });
    const over = decideBet(input({ risk: r }, '0.500001'));
    expect(over.restrictions).toEqual([
      { type: 'max_bet', context: { max_bet: '0.500000', sport_event_id: 'e1' } },
    ]);
    expect(decideBet(input({ risk: r }, '0.5')).restrictions).toEqual([]);
  });

  it('live and prematch exposure are apart', () => {
    const exposure = new Map([[key('prematch', 'e2'), d('1000')]]);
    const out = decideBet(
      input({
        risk: risk({ exposure }),
        bet: {
          ...input().bet,
          selections: [{ sport_event_id: 'e2', market_id: 'm1', odd_id: '1', odds: d('2') }],
        },
      }),
    );
    expect(out.restrictions).toEqual([]);
  });

  it('the group factor multiplies the remaining liability (vip 5, restricted 0.2)', () => {
    for (const [factor, expected] of [
      ['5', '5000.000000'],
      ['0.2', '200.000000'],
      ['1', '1000.000000'],
    ] as const) {
      const out = decideBet(input({ risk: risk({ group: { name: 'g', stakeFactor: d(factor) } }) }, null));
      expect(formatMoney(out.maxBet as Rational)).toBe(expected);
    }
  });

  it('blocked (factor 0) is declined player_limit', () => {
    const out = decideBet(input({ risk: risk({ group: { name: 'blocked', stakeFactor: ZERO } }) }));
    expect(out.restrictions.map((r) => r.type).sort()).toEqual(['max_bet', 'player_limit']);
  });

  it('the white label max stake binds when smaller', () => {
    const out = decideBet(input({ whiteLabel: { betIntervalS: 0, maxStake: d('50') } }, '60'));
    expect(out.restrictions).toEqual([
      { type: 'max_bet', context: { max_bet: '50.000000', sport_event_id: 'e1' } },
    ]);
  });

  it('converts by the EUR rate; without a rate a limited bet cannot be checked', () => {
    const usd = decideBet(input({ risk: risk({ eurRate: d('2') }) }, null));
    expect(formatMoney(usd.maxBet as Rational)).toBe('2000.000000');
    const none = decideBet(input({ risk: risk({ eurRate: undefined }) }));
    expect(none.restrictions.map((r) => r.type)).toEqual(['wl_defined']);
  });

  it('an MTS mixed combo: foreign odds multiply into the total and take their share of the win', () => {
    const out = decideBet(
      input({
        bet: {
          ...input().bet,
          type: 'express',
          foreignSelections: [{ id: 'f1', odds: d('2') }],
        },
      }),
    );
    expect(out.totalOdds).toEqual(d('4'));
    expect(out.restrictions).toEqual([]);
    expect(formatMoney(out.legs[0]?.exposure as Rational)).toBe('15.000000'); // half of 30
    expect(out.maxBet).toEqual(d('666.666666')); // 1000 / 1.5 per unit
  });

  it('reports every failing restriction at once', () => {
    const out = decideBet(
      input(
        {
          whiteLabel: { betIntervalS: 10, minStake: d('1') },
          lastBetAt: new Map([['e1', 0]]),
          now: 2500,
          bet: {
            ...input().bet,
            stake: d('0.5'),
            selections: [{ sport_event_id: 'e1', market_id: 'm1', odd_id: '1', odds: d('2.1') }],
          },
        },
        '0.5',
      ),
    );
    expect(out.restrictions.map((r) => r.type)).toEqual(['selection_value', 'min_bet', 'bet_interval']);
    expect(out.restrictions.find((r) => r.type === 'bet_interval')?.context).toMatchObject({
      time_to_wait: '7.500000',
    });
  });

  it('without a stake: no stake restrictions, only the largest acceptable stake', () => {
    const out = decideBet(input({ whiteLabel: { betIntervalS: 0, minStake: d('100') } }, null));
    expect(out.restrictions).toEqual([]);
    expect(out.maxBet).toEqual(d('1000'));
  });

  it('property: a stake ≤ maxBet is accepted, above it declined max_bet; the accepted bet stays within factor × remaining', () => {
    const arbOdds = fc.bigInt({ min: 1010n, max: 20_000n }).map((n) => rational(n, 1000n));
    fc.assert(
      fc.property(
        fc.array(arbOdds, { minLength: 1, maxLength: 4 }),
        fc.bigInt({ min: 0n, max: 2_000_000_000n }).map((n) => rational(n, 1_000_000n)),
        fc.constantFrom('1', '5', '0.2'),
        fc.bigInt({ min: 1n, max: 10_000_000_000n }).map((n) => rational(n, 1_000_000n)),
        (odds, used, factor, stake) => {
          const events = new Map(
            odds.map((o, i) => [`e${i}`, event(`e${i}`, 0, { '1': formatFeedOddValue(o) })]),
          );
          const exposure = new Map([[key('prematch', 'e0'), used]]);
          const base: BetDecisionInput = {
            ...input(),
            event: (id) => events.get(id),
            risk: risk({ exposure, group: { name: 'g', stakeFactor: d(factor) } }),
            bet: {
              type: odds.length === 1 ? 'single' : 'express',
              systemSizes: [],
              currency: 'EUR',
              oddsStrategy: 1,
              selections: odds.map((o, i) => ({
                sport_event_id: `e${i}`,
                market_id: 'm1',
                odd_id: '1',
                odds: o,
              })),
            },
          };
          const noStake = decideBet(base);
          const maxBet = noStake.maxBet as Rational;
          const at = decideBet({ ...base, bet: { ...base.bet, stake: maxBet } });
          if (compare(maxBet, ZERO) > 0) expect(at.restrictions).toEqual([]);
          const decided = decideBet({ ...base, bet: { ...base.bet, stake } });
          const declined = decided.restrictions.some((r) => r.type === 'max_bet');
          expect(declined).toBe(compare(stake, maxBet) > 0);
          // accepted at maxBet: every leg's exposure stays within factor × remaining (+ 1 micro-unit of rounding)
          at.legs.forEach((leg) => {
            const remaining = sub(d('1000'), leg.outcome.sport_event_id === 'e0' ? used : ZERO);
            const room = mul(d(factor), compare(remaining, ZERO) > 0 ? remaining : ZERO);
            expect(compare(leg.exposure, add(room, d('0.000002'))) <= 0).toBe(true);
          });
        },
      ),
    );
  });

  it('property: a passing decision decided again on exposure within its bounds gives the same verdict and legs', () => {
    const arbOdds = fc.bigInt({ min: 1010n, max: 20_000n }).map((n) => rational(n, 1000n));
    const micro = (max: bigint) => fc.bigInt({ min: 0n, max }).map((n) => rational(n, 1_000_000n));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(arbOdds, fc.boolean()), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('1', '5', '0.2'),
        fc.constantFrom('1', '2', '0.85'),
        fc.bigInt({ min: 1n, max: 2_000_000_000n }).map((n) => rational(n, 1_000_000n)),
        fc.array(micro(1_500_000_000n), { minLength: 4, maxLength: 4 }),
        fc.array(fc.constantFrom('below', 'at', 'past', 'any'), { minLength: 4, maxLength: 4 }),
        (legs, factor, rate, stake, usedAny, how) => {
          const events = new Map(
            legs.map(([o, live], i) => [
              `e${i}`,
              event(`e${i}`, live ? 1 : 0, { '1': formatFeedOddValue(o) }),
            ]),
          );
          const state = (exposure: ReadonlyMap<string, Rational>) =>
            risk({ exposure, eurRate: d(rate), group: { name: 'g', stakeFactor: d(factor) } });
          const base: BetDecisionInput = {
            ...input(),
            event: (id) => events.get(id),
            risk: state(new Map()),
            bet: {
              type: legs.length === 1 ? 'single' : 'express',
              systemSizes: [],
              stake,
              currency: 'EUR',
              oddsStrategy: 1,
              selections: legs.map(([o], i) => ({
                sport_event_id: `e${i}`,
                market_id: 'm1',
                odd_id: '1',
                odds: o,
              })),
            },
          };
          const first = decideBet(base);
          const bounds = first.exposureBounds;
          expect(bounds).toBeDefined();
          if (first.restrictions.length > 0 || !bounds) return;
          expect(bounds.length).toBe(legs.length);
          // each outcome's exposure below, at, just past its bound, or anywhere
          const exposure = new Map(
            bounds.map((b, i) => {
              const mode = how[i] as string;
              const anyUsed = usedAny[i] as Rational;
              const used =
                mode === 'at'
                  ? b.upTo
                  : mode === 'past'
                    ? add(b.upTo, rational(1n, 10n ** 12n))
                    : mode === 'below'
                      ? sub(b.upTo, anyUsed)
                      : anyUsed;
              return [b.key, used];
            }),
          );
          const full = decideBet({ ...base, risk: state(exposure) });
          if (withinExposureBounds(bounds, exposure)) {
            expect(full.restrictions).toEqual([]);
            expect(full.legs).toEqual(first.legs);
          }
          // a bound is tight: the exposure at it still fits, past it by any amount the stake is declined max_bet
          // unless the rounding of the max stake to 6 decimals keeps it (never below the stake)
          if (full.restrictions.length === 0) expect(compare(full.maxBet ?? stake, stake) >= 0).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('no exposure bounds without a stake, a rate or a positive stake factor, or with a stake past 6 decimals', () => {
    expect(decideBet(input({}, null)).exposureBounds).toBeUndefined();
    expect(decideBet(input({ risk: risk({ eurRate: undefined }) })).exposureBounds).toBeUndefined();
    expect(
      decideBet(input({ risk: risk({ group: { name: 'blocked', stakeFactor: ZERO } }) })).exposureBounds,
    ).toBeUndefined();
    expect(decideBet(input({}, '10.0000001')).exposureBounds).toBeUndefined();
    // a single at 2.0, stake 10, limit 1000, factor 1: fits while the outcome's exposure ≤ 1000 − 10 × 1
    const out = decideBet(input());
    expect(out.exposureBounds).toEqual([{ key: key('prematch', 'e1'), upTo: d('990') }]);
    const at = decideBet(input({ risk: risk({ exposure: new Map([[key('prematch', 'e1'), d('990')]]) }) }));
    expect(at.restrictions).toEqual([]);
    const past = decideBet(
      input({ risk: risk({ exposure: new Map([[key('prematch', 'e1'), d('990.000001')]]) }) }),
    );
    expect(past.restrictions.map((r) => r.type)).toEqual(['max_bet']);
  });
});

describe('outcomeKey and betTotalOdds on their short paths', () => {
  it('outcomeKey is the JSON array of phase and ids, for ids of any characters', () => {
    const id = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('sr:match:1', 'a"b', 'c\\d', ''),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('live', 'prematch') as fc.Arbitrary<'live' | 'prematch'>,
        id,
        id,
        id,
        (phase, e, m, o) => {
          expect(outcomeKey({ phase, sport_event_id: e, market_id: m, odd_id: o })).toBe(
            JSON.stringify([phase, e, m, o]),
          );
        },
      ),
    );
  });

  it('the total odds of a single and of an express are the payout of a unit stake with every leg won', () => {
    const arbOdds = fc.bigInt({ min: 1001n, max: 1_000_000_000n }).map((n) => rational(n, 1000n));
    fc.assert(
      fc.property(fc.array(arbOdds, { minLength: 1, maxLength: 12 }), (odds) => {
        const type = odds.length === 1 ? 'single' : 'express';
        const payout = exactPayout({
          betType: type,
          stake: ONE,
          legs: odds.map((o) => ({ odds: o, status: 1 as const })),
          expressCap: NO_CAP,
        }).value;
        expect(betTotalOdds(type, odds, [])).toEqual(payout);
      }),
    );
  });

  it('an express past the cap no express reaches is that cap', () => {
    const odds = Array.from({ length: 31 }, () => rational(11n));
    expect(betTotalOdds('express', odds, [])).toEqual(NO_CAP);
  });
});

/** The cap the total odds stop at (10^30: no express reaches it). */
const NO_CAP = rational(10n ** 30n);
