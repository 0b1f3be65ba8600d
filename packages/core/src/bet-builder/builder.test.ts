import { describe, expect, it } from 'vitest';
import { div, ONE, type Rational, rational, roundDown, sub } from '../decimal.js';
import {
  BUILDER_MIN_ODDS,
  type BuilderLegRef,
  builderModel,
  builderProbabilities,
  calculateBuilder,
  priceBuilder,
} from './builder.js';
import { toFloat } from './fit.js';
import { footballOdd } from './football-markets.js';
import { FIXTURE_EVENT, FIXTURE_MARKETS, modelWith } from './testing.js';

const LH = 1.5;
const LA = 1.1;
const model = modelWith({ home: LH, away: LA, rho: 0 });
const margin = rational(5n, 100n);
const settings = { margin };

/** P(N = k) for N ~ Poisson(λ), the textbook way (Math.exp and a factorial), independent of the module's own. */
function pois(k: number, l: number): number {
  let f = 1;
  for (let i = 2; i <= k; i++) f *= i;
  return (Math.exp(-l) * l ** k) / f;
}
/** The mass of the 0..15 a side grid: the model renormalises over it (the truncated tail is spread in proportion). */
let GRID = 0;
for (let h = 0; h <= 15; h++) for (let a = 0; a <= 15; a++) GRID += pois(h, LH) * pois(a, LA);
const f = (h: number, a: number) => (pois(h, LH) * pois(a, LA)) / GRID;

function pHomeWin(): number {
  let p = 0;
  for (let h = 1; h <= 15; h++) for (let a = 0; a < h; a++) p += f(h, a);
  return p;
}

const leg = (market_id: string, odd_id: string): BuilderLegRef => ({ market_id, odd_id });

function quote(legs: BuilderLegRef[]) {
  const q = priceBuilder(FIXTURE_EVENT, model, legs, settings);
  if (!q.ok) throw new Error(`refused: ${q.refusal.message}`);
  return q.value;
}

function oddOf(market: string, odd: string) {
  const m = FIXTURE_MARKETS[market]!;
  const r = footballOdd(m.type_id, m.specifiers, odd);
  if (!r.ok) throw new Error(r.message);
  return r.odd;
}

const offered = (p: Rational) => roundDown(div(div(ONE, p), rational(105n, 100n)), 3);

describe('builder prices under independent Poisson (λ 1.5 : 1.1), checked by direct summation another way', () => {
  it('home win & over 2.5 = P(home) − P(1:0) − P(2:0)', () => {
    const q = quote([leg('1', '1'), leg('18:total=2.5', '12')]);
    expect(toFloat(q.probability)).toBeCloseTo(pHomeWin() - f(1, 0) - f(2, 0), 12);
    expect(q.odds).toEqual(offered(q.probability));
    expect(toFloat(q.odds)).toBeCloseTo(Math.floor(1000 / (toFloat(q.probability) * 1.05)) / 1000, 9);
    expect(q.refundProbability).toEqual(rational(0n));
  });

  it('both teams score & over 2.5 = (1 − e^−λh)(1 − e^−λa) − P(1:1)', () => {
    const q = quote([leg('29', '74'), leg('18:total=2.5', '12')]);
    // closed form over the whole plane; the grid holds all but ~1e-11 of it
    expect(toFloat(q.probability)).toBeCloseTo((1 - Math.exp(-LH)) * (1 - Math.exp(-LA)) - f(1, 1), 10);
  });

  it('draw & under 2.5 = P(0:0) + P(1:1)', () => {
    const q = quote([leg('1', '2'), leg('18:total=2.5', '13')]);
    expect(toFloat(q.probability)).toBeCloseTo(f(0, 0) + f(1, 1), 12);
    expect(q.legs.map((l) => l.label)).toEqual(['1X2: draw', 'total 2.5: under']);
  });

  it('a one-leg builder is that leg priced by the model', () => {
    const q = quote([leg('1', '1')]);
    expect(q.probability).toEqual(builderProbabilities(model.matrix, [oddOf('1', '1')]).win);
    expect(toFloat(q.probability)).toBeCloseTo(pHomeWin(), 12);
    expect(q.odds).toEqual(offered(q.probability));
    expect(q.legs[0]!.probability).toEqual(q.probability);
  });

  it('draw no bet: refunded on a draw, fair odds (1 − P(draw)) / P(home)', () => {
    const q = quote([leg('11', '4')]);
    const home = builderProbabilities(model.matrix, [oddOf('1', '1')]).win;
    const draw = builderProbabilities(model.matrix, [oddOf('1', '2')]).win;
    expect(q.probability).toEqual(home);
    expect(q.refundProbability).toEqual(draw);
    expect(q.fairOdds).toEqual(div(sub(ONE, draw), home));
  });

  it('a whole line with another leg: refunded when no leg loses and the line lands on its number', () => {
    const q = quote([leg('18:total=3', '12'), leg('1', '1')]);
    expect(toFloat(q.refundProbability)).toBeCloseTo(f(2, 1) + f(3, 0), 12);
  });

  it('a redundant leg changes nothing: home win & home-or-draw is home win', () => {
    expect(quote([leg('1', '1'), leg('10', '9')]).probability).toEqual(quote([leg('1', '1')]).probability);
  });

  it('a European handicap 0:1 home is a win by two or more', () => {
    let p = 0;
    for (let h = 2; h <= 15; h++) for (let a = 0; a <= h - 2; a++) p += f(h, a);
    expect(toFloat(quote([leg('14:hcp=0:1', '1711')]).probability)).toBeCloseTo(p, 12);
  });
});

describe('refusals', () => {
  const cases: [string, BuilderLegRef[], string, number | undefined][] = [
    ['no legs', [], 'no_legs', undefined],
    ['two legs on one market', [leg('1', '1'), leg('1', '2')], 'same_market', 1],
    ['a duplicate leg', [leg('29', '74'), leg('29', '74')], 'same_market', 1],
    ['a contradiction', [leg('1', '1'), leg('10', '11')], 'contradictory', undefined],
    ['home win & correct score 1:1', [leg('45', '1:1'), leg('1', '1')], 'contradictory', undefined],
    ['an unknown market', [leg('1', '1'), leg('nope', '1')], 'unknown_market', 1],
    ['an unknown odd', [leg('1', '9')], 'unknown_odd', 0],
    ['a market not decided by the score', [leg('99', '1')], 'unsupported_market', 0],
    ['a quarter line', [leg('16:hcp=-0.25', '1714')], 'unsupported_line', 0],
    ['odds above 1000', [leg('45', '9:9')], 'odds_out_of_range', undefined],
    ['odds below 1.01', [leg('20:total=5.5', '13')], 'odds_out_of_range', undefined],
    ['another sport event', [{ ...leg('1', '1'), sport_event_id: 'event-2' }], 'different_sport_event', 0],
    [
      'other specifiers',
      [{ ...leg('18:total=2.5', '12'), specifiers: { total: '3.5' } }],
      'unknown_market',
      0,
    ],
  ];
  it.each(cases)('%s', (_, legs, code, index) => {
    const q = priceBuilder(FIXTURE_EVENT, model, legs, settings);
    expect(q.ok).toBe(false);
    if (q.ok) return;
    expect(q.refusal.code).toBe(code);
    expect(q.refusal.leg).toBe(index);
    if (index !== undefined)
      expect(q.refusal.message).toContain(`legs[${index}] (market ${legs[index]!.market_id}`);
  });

  it('a market that is not active, or an odd that is not open', () => {
    const suspended = {
      ...FIXTURE_EVENT,
      markets: { ...FIXTURE_MARKETS, '29': { ...FIXTURE_MARKETS['29']!, status: 1 } },
    };
    const q = priceBuilder(suspended, model, [leg('1', '1'), leg('29', '74')], settings);
    expect(!q.ok && q.refusal).toMatchObject({ code: 'not_bettable', leg: 1 });
  });

  it('too many legs for the settings', () => {
    const legs = [leg('1', '1'), leg('29', '74'), leg('18:total=2.5', '12')];
    const q = priceBuilder(FIXTURE_EVENT, model, legs, { margin, maxLegs: 2 });
    expect(!q.ok && q.refusal.code).toBe('too_many_legs');
  });

  it('settings out of range are a validation error naming the field', () => {
    expect(() => priceBuilder(FIXTURE_EVENT, model, [leg('1', '1')], { margin: ONE })).toThrow(/^margin/);
    expect(() => priceBuilder(FIXTURE_EVENT, model, [leg('1', '1')], { margin, maxLegs: 0 })).toThrow(
      /^max_legs/,
    );
  });

  it('an event without a model: not football, or no 1X2', () => {
    expect(builderModel({ ...FIXTURE_EVENT, sport_id: 'tennis' })).toMatchObject({
      ok: false,
      refusal: { code: 'sport_not_modelled' },
    });
    const { '1': _, ...rest } = FIXTURE_MARKETS;
    expect(builderModel({ ...FIXTURE_EVENT, markets: rest })).toMatchObject({
      ok: false,
      refusal: { code: 'no_score_model' },
    });
  });

  it('a model the inputs cannot be fitted to (a heavy favourite in a goalless match)', () => {
    const markets = {
      '1': {
        ...FIXTURE_MARKETS['1']!,
        odds: {
          ...FIXTURE_MARKETS['1']!.odds,
          '1': { value: '1.05', status: 0, is_active: true },
          '2': { value: '15', status: 0, is_active: true },
          '3': { value: '40', status: 0, is_active: true },
        },
      },
      '18:total=2.5': {
        ...FIXTURE_MARKETS['18:total=2.5']!,
        odds: {
          '12': { value: '20', status: 0, is_active: true },
          '13': { value: '1.01', status: 0, is_active: true },
        },
      },
    };
    const m = builderModel({ ...FIXTURE_EVENT, markets });
    expect(m).toMatchObject({ ok: false, refusal: { code: 'model_fit_failed' } });
    expect(!m.ok && m.refusal.message).toMatch(/misses .* by /);
  });
});

describe('calculateBuilder', () => {
  it('fits the model from the event: the margin-free 1X2 and 2.5 total are reproduced', () => {
    const m = builderModel(FIXTURE_EVENT);
    expect(m.ok).toBe(true);
    if (!m.ok) return;
    expect(m.value.fit.kind).toBe('dixon_coles');
    // 1X2 2.10/3.40/3.60 and totals 1.5 and 2.5 (the whole line 3 is not an input): three parameters, four targets
    expect(m.value.fit.targets.map((t) => t.label)).toEqual([
      '1X2 home',
      '1X2 away',
      'total 1.5 over',
      'total 2.5 over',
      '1X2 draw',
    ]);
    expect(m.value.fit.maxError).toBeLessThan(0.01);
  });

  it('with no legs: no quote, and every odd that can be a one-leg builder', () => {
    const c = calculateBuilder(FIXTURE_EVENT, [], settings, model);
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(c.value.quote).toBeUndefined();
    const ids = c.value.addable.map((a) => `${a.market_id}/${a.odd_id}`);
    expect(ids).toContain('1/1');
    expect(ids).toContain('11/4');
    expect(ids).toContain('16:hcp=-1/1714');
    expect(ids).not.toContain('99/1');
    expect(ids).not.toContain('16:hcp=-0.25/1714');
    expect(ids).not.toContain('45/9:9');
    expect(ids).not.toContain('20:total=5.5/13');
    for (const a of c.value.addable) expect(a.odds).toEqual(quote([leg(a.market_id, a.odd_id)]).odds);
  });

  it('with legs: the quote, and what can still be added without contradiction', () => {
    const c = calculateBuilder(FIXTURE_EVENT, [leg('1', '1')], settings, model);
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(c.value.quote?.odds).toEqual(quote([leg('1', '1')]).odds);
    const ids = c.value.addable.map((a) => `${a.market_id}/${a.odd_id}`);
    expect(ids.filter((i) => i.startsWith('1/'))).toEqual([]);
    expect(ids).toContain('10/9');
    expect(ids).not.toContain('10/11');
    expect(ids).not.toContain('45/1:1');
    expect(ids).toContain('45/2:1');
    const over = c.value.addable.find((a) => a.market_id === '18:total=2.5' && a.odd_id === '12');
    expect(over?.odds).toEqual(quote([leg('1', '1'), leg('18:total=2.5', '12')]).odds);
  });

  it('returns the refusal of the chosen legs', () => {
    const c = calculateBuilder(FIXTURE_EVENT, [leg('1', '1'), leg('1', '3')], settings, model);
    expect(!c.ok && c.refusal.code).toBe('same_market');
  });

  it('never offers odds below the minimum', () => {
    const c = calculateBuilder(FIXTURE_EVENT, [], settings, model);
    if (c.ok)
      for (const a of c.value.addable)
        expect(a.odds.num * BUILDER_MIN_ODDS.den >= BUILDER_MIN_ODDS.num * a.odds.den).toBe(true);
    expect(c.ok).toBe(true);
  });
});
