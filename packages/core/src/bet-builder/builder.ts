/**
 * Pricing a bet builder (DECISIONS D59; docs/adr/0042-bet-builder-pricing.md): the probability of the set of final
 * scores on which every inner leg wins, under the event's fitted score model, divided into 1 with the white label's
 * builder margin.
 *
 * Exactness boundary: the score model is a float estimate; its matrix is quantized once to integer cells
 * ({@link ScoreMatrix}); from there the probability of a combination (a sum of cells over their total), the margin
 * and the odds are exact rationals, and the odds are rounded once, down, to {@link BUILDER_ODDS_DECIMALS}.
 *
 * @packageDocumentation
 */
import {
  add,
  compare,
  div,
  ONE,
  parseFeedOddValue,
  type Rational,
  rational,
  roundDown,
  ZERO,
} from '../decimal.js';
import { validationError } from '../errors.js';
import { MARKET_STATUS, ODD_STATUS } from '../statuses.js';
import {
  type AddableOdd,
  BUILDER_MAX_ODDS,
  BUILDER_MIN_ODDS,
  BUILDER_ODDS_DECIMALS,
  BUILDER_REFUSAL_CODES,
  type BuilderCalculation,
  type BuilderEventInput,
  type BuilderLegRef,
  type BuilderMarketInput,
  type BuilderModel,
  type BuilderQuote,
  type BuilderRefusal,
  type BuilderRefusalCode,
  type BuilderResult,
  type BuilderSettings,
  FIT_TOLERANCE,
  MAX_BUILDER_LEGS,
} from './builder-types.js';
import { fitScoreModel, marginFreeProbabilities, toFloat } from './fit.js';
import { FOOTBALL_MARKET, type FootballOdd, footballOdd } from './football-markets.js';
import { MAX_GOALS, MAX_LEG_GOALS, type ScoreMatrix, scoreMatrix } from './score-model.js';

export * from './builder-types.js';

const refuse = (
  code: BuilderRefusalCode,
  message: string,
  leg?: number,
): { ok: false; refusal: BuilderRefusal } => ({
  ok: false,
  refusal: leg === undefined ? { code, message } : { code, message, leg },
});

const SIDE = MAX_GOALS + 1;
const CELLS = SIDE * SIDE;

function activeQuote(market: BuilderMarketInput): boolean {
  if (market.status !== MARKET_STATUS.ACTIVE) return false;
  return Object.values(market.odds).every((o) => o.status === ODD_STATUS.NOT_RESULTED && o.is_active);
}

function marketOdds(market: BuilderMarketInput, ids: readonly string[]): Rational[] | undefined {
  const out: Rational[] = [];
  for (const id of ids) {
    const o = market.odds[id];
    if (!o) return undefined;
    try {
      out.push(parseFeedOddValue(o.value, 'value'));
    } catch {
      return undefined;
    }
  }
  return out;
}

function byKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Fits the event's score model (see fit.ts): margin removed proportionally from its first active, fully quoted 1X2
 * market (by market id) and from every active, fully quoted half-line total-goals market below
 * {@link MAX_LEG_GOALS} (one per line, the first by market id).
 */
export function builderModel(event: BuilderEventInput): BuilderResult<BuilderModel> {
  if (event.sport_id !== 'football')
    return refuse(
      'sport_not_modelled',
      `sport ${event.sport_id} has no score model; builders are football only`,
    );
  let oneXTwo: { home: number; draw: number; away: number } | undefined;
  const totals = new Map<number, number>();
  for (const id of Object.keys(event.markets).sort(byKey)) {
    const m = event.markets[id]!;
    if (!activeQuote(m)) continue;
    const ids = Object.keys(m.odds);
    if (m.type_id === FOOTBALL_MARKET.ONE_X_TWO && !oneXTwo) {
      const order = ['home', 'draw', 'away'].map((o) => ids.find((i) => resolvedName(m, i) === `1X2: ${o}`));
      if (ids.length !== 3 || order.some((i) => i === undefined)) continue;
      const odds = marketOdds(m, order as string[]);
      if (!odds) continue;
      const [h, d, a] = marginFreeProbabilities(odds).map(toFloat) as [number, number, number];
      oneXTwo = { home: h, draw: d, away: a };
    } else if (m.type_id === FOOTBALL_MARKET.TOTAL && ids.length === 2) {
      const over = ids.find((i) => resolved(m, i)?.label.endsWith(': over'));
      const under = ids.find((i) => resolved(m, i)?.label.endsWith(': under'));
      const o = over === undefined ? undefined : resolved(m, over);
      if (over === undefined || under === undefined || !o || o.refundable || o.split) continue;
      const line = Number(m.specifiers.total);
      if (totals.has(line)) continue;
      const odds = marketOdds(m, [over, under]);
      if (!odds) continue;
      totals.set(line, toFloat(marginFreeProbabilities(odds)[0]!));
    }
  }
  if (!oneXTwo)
    return refuse(
      'no_score_model',
      `sport event ${event.id} has no active, fully quoted 1X2 market to fit the score model to`,
    );
  const fit = fitScoreModel({
    oneXTwo,
    totals: [...totals.entries()].sort((a, b) => a[0] - b[0]).map(([line, over]) => ({ line, over })),
  });
  if (!(fit.maxError <= FIT_TOLERANCE)) {
    const worst = fit.targets.reduce((w, t) => (Math.abs(t.error) > Math.abs(w.error) ? t : w));
    return refuse(
      'model_fit_failed',
      `the score model of sport event ${event.id} misses ${worst.label} by ${Math.abs(worst.error).toPrecision(3)}`,
    );
  }
  return { ok: true, value: Object.freeze({ eventId: event.id, matrix: scoreMatrix(fit.params), fit }) };
}

function resolved(m: BuilderMarketInput, oddId: string): FootballOdd | undefined {
  const r = footballOdd(m.type_id, m.specifiers, oddId);
  return r.ok ? r.odd : undefined;
}

function resolvedName(m: BuilderMarketInput, oddId: string): string | undefined {
  return resolved(m, oddId)?.label;
}

/** A leg resolved against the event: its odd and its result on every cell of the matrix. */
interface ResolvedLeg {
  readonly ref: BuilderLegRef;
  readonly odd: FootballOdd;
  readonly results: Uint8Array;
}

function resultsOf(odd: FootballOdd): Uint8Array {
  const out = new Uint8Array(CELLS);
  for (let h = 0; h < SIDE; h++)
    for (let a = 0; a < SIDE; a++) out[h * SIDE + a] = odd.result({ home: h, away: a });
  return out;
}

function sameSpecifiers(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

function legName(i: number, ref: BuilderLegRef): string {
  return `legs[${i}] (market ${String(ref.market_id).slice(0, 60)}, odd ${String(ref.odd_id).slice(0, 40)})`;
}

function resolveLeg(event: BuilderEventInput, ref: BuilderLegRef, i: number): BuilderResult<ResolvedLeg> {
  const name = legName(i, ref);
  if (ref.sport_event_id !== undefined && ref.sport_event_id !== event.id)
    return refuse(
      'different_sport_event',
      `${name}: a builder's legs are on one sport event (${event.id})`,
      i,
    );
  const market = Object.hasOwn(event.markets, ref.market_id) ? event.markets[ref.market_id] : undefined;
  if (!market) return refuse('unknown_market', `${name}: the sport event has no such market`, i);
  if (ref.specifiers !== undefined && !sameSpecifiers(ref.specifiers, market.specifiers))
    return refuse('unknown_market', `${name}: the market's specifiers are not the ones given`, i);
  const o = Object.hasOwn(market.odds, ref.odd_id) ? market.odds[ref.odd_id] : undefined;
  if (!o) return refuse('unknown_odd', `${name}: the market has no such odd`, i);
  if (market.status !== MARKET_STATUS.ACTIVE || o.status !== ODD_STATUS.NOT_RESULTED || !o.is_active)
    return refuse('not_bettable', `${name}: the market is not active or the odd is not open`, i);
  const r = footballOdd(market.type_id, market.specifiers, ref.odd_id);
  if (!r.ok) return refuse(r.code, `${name}: ${r.message}`, i);
  if (r.odd.split)
    return refuse(
      'unsupported_line',
      `${name}: ${r.odd.label} is a quarter line; half results are not priced in a builder`,
      i,
    );
  return { ok: true, value: { ref, odd: r.odd, results: resultsOf(r.odd) } };
}

function checkSettings(settings: BuilderSettings): number {
  const m = settings.margin;
  if (compare(m, ZERO) < 0 || compare(m, ONE) >= 0) throw validationError('margin', 'must be in [0, 1)');
  const max = settings.maxLegs ?? MAX_BUILDER_LEGS;
  if (!Number.isSafeInteger(max) || max < 1 || max > MAX_BUILDER_LEGS)
    throw validationError('max_legs', `must be an integer in [1, ${MAX_BUILDER_LEGS}]`);
  return max;
}

function sumWhere(matrix: ScoreMatrix, pick: (k: number) => boolean): bigint {
  let s = 0n;
  for (let h = 0; h < SIDE; h++) {
    const row = matrix.cells[h]!;
    for (let a = 0; a < SIDE; a++) if (pick(h * SIDE + a)) s += row[a]!;
  }
  return s;
}

/** The exact probabilities of a combination of legs (see {@link builderProbabilities}). */
export interface CombinationProbabilities {
  /** P(every leg wins). */
  readonly win: Rational;
  /** P(no leg loses and some leg is refunded). */
  readonly refund: Rational;
  /** Whether some final score in the matrix wins every leg (false: the combination is contradictory). */
  readonly possible: boolean;
}

function combine(
  matrix: ScoreMatrix,
  results: readonly Uint8Array[],
): { win: bigint; refund: bigint; possible: boolean } {
  let win = 0n;
  let refund = 0n;
  let possible = false;
  for (let h = 0; h < SIDE; h++) {
    const row = matrix.cells[h]!;
    for (let a = 0; a < SIDE; a++) {
      const k = h * SIDE + a;
      let lost = false;
      let refunded = false;
      for (const r of results) {
        const v = r[k];
        if (v === ODD_STATUS.LOSS || v === ODD_STATUS.HALF_WIN || v === ODD_STATUS.HALF_LOSS) {
          lost = true;
          break;
        }
        if (v === ODD_STATUS.REFUNDED) refunded = true;
      }
      if (lost) continue;
      if (refunded) refund += row[a]!;
      else {
        possible = true;
        win += row[a]!;
      }
    }
  }
  return { win, refund, possible };
}

/**
 * The exact probabilities of a combination of football odds under a quantized score matrix: the sums of the cells
 * where every odd wins, and where none loses and some is refunded, over the matrix total. A half result (quarter
 * lines) counts as neither a win nor a refund here; the builder refuses those legs before.
 */
export function builderProbabilities(
  matrix: ScoreMatrix,
  odds: readonly FootballOdd[],
): CombinationProbabilities {
  const c = combine(matrix, odds.map(resultsOf));
  return {
    win: rational(c.win, matrix.total),
    refund: rational(c.refund, matrix.total),
    possible: c.possible,
  };
}

function quoteOf(
  model: BuilderModel,
  legs: readonly ResolvedLeg[],
  margin: Rational,
): BuilderResult<BuilderQuote> {
  const { matrix } = model;
  const { win, refund, possible } = combine(
    matrix,
    legs.map((l) => l.results),
  );
  const labels = legs.map((l) => l.odd.label).join(' & ');
  if (!possible) return refuse('contradictory', `no final score wins every leg: ${labels}`);
  if (win === 0n)
    return refuse('odds_out_of_range', `${labels}: too unlikely to price (probability below 1e-15)`);
  const T = matrix.total;
  const probability = rational(win, T);
  const refundProbability = rational(refund, T);
  const fairOdds = rational(T - refund, win);
  const odds = roundDown(div(fairOdds, add(ONE, margin)), BUILDER_ODDS_DECIMALS);
  if (compare(odds, BUILDER_MIN_ODDS) < 0)
    return refuse('odds_out_of_range', `${labels}: odds ${fmt(odds)} are below the minimum 1.01`);
  if (compare(odds, BUILDER_MAX_ODDS) > 0)
    return refuse('odds_out_of_range', `${labels}: odds ${fmt(odds)} are above the maximum 1000`);
  const priced = legs.map((l) => ({
    market_id: l.ref.market_id,
    odd_id: l.ref.odd_id,
    label: l.odd.label,
    probability: rational(
      sumWhere(matrix, (k) => l.results[k] === ODD_STATUS.WIN),
      T,
    ),
  }));
  return {
    ok: true,
    value: Object.freeze({ odds, fairOdds, probability, refundProbability, legs: Object.freeze(priced) }),
  };
}

function fmt(x: Rational): string {
  const q = roundDown(x, 3);
  const whole = q.num / q.den;
  const frac = ((q.num * 1000n) / q.den) % 1000n;
  return `${whole}.${frac.toString().padStart(3, '0')}`;
}

function resolveAll(
  event: BuilderEventInput,
  legs: readonly BuilderLegRef[],
  maxLegs: number,
): BuilderResult<ResolvedLeg[]> {
  if (legs.length > maxLegs)
    return refuse('too_many_legs', `a builder takes at most ${maxLegs} legs, got ${legs.length}`);
  const out: ResolvedLeg[] = [];
  const seen = new Map<string, number>();
  for (const [i, ref] of legs.entries()) {
    const first = seen.get(ref.market_id);
    if (first !== undefined)
      return refuse('same_market', `${legName(i, ref)}: legs[${first}] is already on this market`, i);
    seen.set(ref.market_id, i);
    const r = resolveLeg(event, ref, i);
    if (!r.ok) return r;
    out.push(r.value);
  }
  return { ok: true, value: out };
}

/**
 * Prices a builder of `legs` on the event under `model` (see the module comment): P(every leg wins) and P(refund)
 * summed exactly over the quantized score matrix, fair odds (1 − P(refund)) / P(win), offered odds fair / (1 +
 * margin) rounded down to 3 decimals. A one-leg builder is that leg priced by the model. A builder is refunded whole
 * when no leg loses and some leg is refunded (draw no bet on a draw, a whole line landing on its number).
 *
 * @returns the quote, or a refusal (see {@link BUILDER_REFUSAL_CODES}) naming the leg.
 * @throws DomainError `validation_error` (field `margin` or `max_legs`) for settings out of range.
 */
export function priceBuilder(
  event: BuilderEventInput,
  model: BuilderModel,
  legs: readonly BuilderLegRef[],
  settings: BuilderSettings,
): BuilderResult<BuilderQuote> {
  const maxLegs = checkSettings(settings);
  if (model.eventId !== event.id) throw new RangeError('priceBuilder: the model is of another sport event');
  if (legs.length === 0) return refuse('no_legs', 'a builder needs at least one leg');
  const resolvedLegs = resolveAll(event, legs, maxLegs);
  if (!resolvedLegs.ok) return resolvedLegs;
  return quoteOf(model, resolvedLegs.value, settings.margin);
}

/**
 * The builder calculator (the shape of a custom-bet "calculate"): fits the event's model, prices the chosen legs
 * (none: no quote) and lists every other odd of the event that can be added — on a market not yet used, resolved
 * as a leg, and leaving a priced (not contradictory, not out of range) builder — with the price it would give.
 *
 * @returns the calculation, or the refusal of the event or of the chosen legs.
 * @throws DomainError `validation_error` (field `margin` or `max_legs`) for settings out of range.
 */
export function calculateBuilder(
  event: BuilderEventInput,
  legs: readonly BuilderLegRef[],
  settings: BuilderSettings,
  model?: BuilderModel,
): BuilderResult<BuilderCalculation> {
  const maxLegs = checkSettings(settings);
  let m = model;
  if (!m) {
    const fitted = builderModel(event);
    if (!fitted.ok) return fitted;
    m = fitted.value;
  } else if (m.eventId !== event.id)
    throw new RangeError('calculateBuilder: the model is of another sport event');
  const chosen = resolveAll(event, legs, maxLegs);
  if (!chosen.ok) return chosen;
  let quote: BuilderQuote | undefined;
  if (legs.length > 0) {
    const q = quoteOf(m, chosen.value, settings.margin);
    if (!q.ok) return q;
    quote = q.value;
  }
  const addable: AddableOdd[] = [];
  if (legs.length < maxLegs) {
    const used = new Set(legs.map((l) => l.market_id));
    for (const marketId of Object.keys(event.markets).sort(byKey)) {
      if (used.has(marketId)) continue;
      for (const oddId of Object.keys(event.markets[marketId]!.odds).sort(byKey)) {
        const leg = resolveLeg(event, { market_id: marketId, odd_id: oddId }, legs.length);
        if (!leg.ok) continue;
        const q = quoteOf(m, [...chosen.value, leg.value], settings.margin);
        if (!q.ok) continue;
        addable.push({
          market_id: marketId,
          odd_id: oddId,
          label: leg.value.odd.label,
          odds: q.value.odds,
          probability: q.value.probability,
        });
      }
    }
  }
  return { ok: true, value: quote ? { quote, addable, model: m } : { addable, model: m } };
}
