/**
 * The bettors of a replay: a seeded population of players and the bets they make over a season
 * (docs/adr/0011-replay-and-demo.md "Bettors").
 *
 * Two halves:
 * - {@link makePopulation} and {@link planBets} decide, from the seed and the season script alone, who bets, when
 *   (in simulated time), on which matches, what kind of bet, what stake and which odds acceptance strategy. The plan
 *   is the same on every run.
 * - {@link chooseSelections} runs when the bet is made: the player looks at the sport events as the feed (or the
 *   frame API) shows them at that moment and picks a market and an outcome in each, at the odds shown.
 *
 * Some bets are meant to be declined, as in life: a "late" bettor reads the odds minutes before the closing update
 * and sends them after it ({@link PlannedBet.lookAt}), so strategies 1 and 2 refuse moved odds; a few stakes fall
 * under the white label's minimum or over its maximum, and big combinations cross the maximum payout.
 *
 * @packageDocumentation
 */
import type { SportEvent } from '@bookie/contracts';
import type { MarketKind } from './football-data.js';
import { marketKindOf, OUTCOMES } from './markets.js';
import { Rng } from './prng.js';
import type { SeasonScript } from './season-script.js';

/** A player's profile. */
export type BettorKind = 'casual' | 'punter' | 'sharp' | 'high_roller';

/** An odds acceptance strategy (spec 01): 1 tolerance (0: unchanged only), 2 only up, 3 any change. */
export type Strategy = 1 | 2 | 3;

/** A bet type as the frame API takes it. */
export type BetKind = 'single' | 'express' | 'system';

/** One player of the population. */
export interface Bettor {
  /** Index in the population. */
  index: number;
  /** Player id at the partner (and in Bookie's sessions), e.g. `bettor-007`. */
  id: string;
  kind: BettorKind;
  /** First deposit, EUR, a decimal string with 2 decimals. */
  deposit: string;
  /** Usual stake range, EUR. */
  stakeMin: number;
  stakeMax: number;
  /** Relative number of bets. */
  activity: number;
  types: Readonly<Record<BetKind, number>>;
  markets: Readonly<Record<MarketKind, number>>;
  strategies: Readonly<Record<Strategy, number>>;
  /** Exponent on implied probability when choosing an outcome: > 1 backs favourites, < 1 likes long odds. */
  favouriteBias: number;
  /** Share of this player's singles made late: odds read before the closing update, sent after it. */
  lateShare: number;
}

interface Profile {
  share: number;
  deposit: [number, number];
  stake: [number, number];
  activity: number;
  types: Record<BetKind, number>;
  markets: Record<MarketKind, number>;
  strategies: Record<Strategy, number>;
  favouriteBias: [number, number];
  lateShare: number;
}

/** The four profiles (shares of the population, deposits, stakes, tastes). */
export const PROFILES: Readonly<Record<BettorKind, Profile>> = {
  casual: {
    share: 0.55,
    deposit: [200, 800],
    stake: [1, 20],
    activity: 1,
    types: { single: 0.5, express: 0.38, system: 0.12 },
    markets: { '1x2': 0.65, total: 0.25, asian_handicap: 0.1 },
    strategies: { 1: 0.2, 2: 0.3, 3: 0.5 },
    favouriteBias: [0.6, 1.2],
    lateShare: 0.04,
  },
  punter: {
    share: 0.3,
    deposit: [1500, 6000],
    stake: [5, 100],
    activity: 2,
    types: { single: 0.45, express: 0.33, system: 0.22 },
    markets: { '1x2': 0.45, total: 0.3, asian_handicap: 0.25 },
    strategies: { 1: 0.4, 2: 0.3, 3: 0.3 },
    favouriteBias: [0.8, 1.4],
    lateShare: 0.08,
  },
  sharp: {
    share: 0.1,
    deposit: [5000, 20000],
    stake: [20, 400],
    activity: 2.5,
    types: { single: 0.85, express: 0.1, system: 0.05 },
    markets: { '1x2': 0.2, total: 0.3, asian_handicap: 0.5 },
    strategies: { 1: 0.7, 2: 0.3, 3: 0 },
    favouriteBias: [0.9, 1.1],
    lateShare: 0.3,
  },
  high_roller: {
    share: 0.05,
    deposit: [40000, 150000],
    stake: [200, 4000],
    activity: 1.5,
    types: { single: 0.6, express: 0.3, system: 0.1 },
    markets: { '1x2': 0.6, total: 0.2, asian_handicap: 0.2 },
    strategies: { 1: 0.3, 2: 0.2, 3: 0.5 },
    favouriteBias: [1, 1.5],
    lateShare: 0.05,
  },
};

const KINDS = Object.keys(PROFILES) as BettorKind[];

/** A log-uniform draw in [lo, hi]. */
function logUniform(rng: Rng, lo: number, hi: number): number {
  return Math.exp(Math.log(lo) + rng.next() * (Math.log(hi) - Math.log(lo)));
}

/** `count` players from `seed` (player i depends only on the seed and i). */
export function makePopulation(seed: string, count: number): Bettor[] {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`makePopulation: count must be ≥ 1, got ${count}`);
  const width = Math.max(3, String(count).length);
  const out: Bettor[] = [];
  for (let i = 0; i < count; i++) {
    const rng = new Rng(`${seed}/bettor/${i}`);
    const kind = rng.weighted(KINDS.map((k) => [k, PROFILES[k].share] as const));
    const p = PROFILES[kind];
    const deposit = Math.round(logUniform(rng, p.deposit[0], p.deposit[1]) / 10) * 10;
    out.push({
      index: i,
      id: `bettor-${String(i + 1).padStart(width, '0')}`,
      kind,
      deposit: `${deposit}.00`,
      stakeMin: p.stake[0],
      stakeMax: p.stake[1],
      activity: p.activity * (0.5 + rng.next()),
      types: p.types,
      markets: p.markets,
      strategies: p.strategies,
      favouriteBias: p.favouriteBias[0] + rng.next() * (p.favouriteBias[1] - p.favouriteBias[0]),
      lateShare: p.lateShare,
    });
  }
  return out;
}

/** One bet of the plan. Times are simulated unix ms. */
export interface PlannedBet {
  /** Position in the plan (0-based). */
  index: number;
  /** Sent as `client_key`: the same bet is never placed twice. */
  key: string;
  /** Index of the player in the population. */
  player: number;
  type: BetKind;
  /** For a system: the combination sizes. */
  systemSizes?: number[];
  /** The matches (indexes into {@link SeasonScript.matches}), one selection each, in this order. */
  legs: number[];
  /** EUR, decimal string. */
  stake: string;
  strategy: Strategy;
  /** When the bet is sent (before every leg's kick-off). */
  at: number;
  /** A late bet: when the odds were read (before the closing-odds update that `at` follows). */
  lookAt?: number;
  /** Why the plan made this bet special, for the report (`late`, `min_stake`, `big_stake`; `live`: in play). */
  intent?: 'late' | 'under_min_stake' | 'big_stake' | 'live';
}

/** Options of {@link planBets}. */
export interface PlanOptions {
  seed: string;
  /** How many bets in all. */
  bets: number;
  population: readonly Bettor[];
  /** The white label's minimum stake, EUR (a few bets go under it on purpose; default 1). */
  minStake?: number;
  /** The white label's maximum stake, EUR (high rollers sometimes go over it; default none). */
  maxStake?: number;
  /** How long before kick-off the markets open, ms (default 48 h, the script's timeline). */
  openBeforeMs?: number;
  /** When the closing odds arrive before kick-off, ms (default 5 min). */
  closingBeforeMs?: number;
}

const HOUR = 3_600_000;
const MIN = 60_000;

/** A stake as a decimal string: whole euros from 5 up, else with 50 cent steps. */
function stakeText(v: number): string {
  if (v >= 5) return `${Math.round(v)}.00`;
  return Math.max(0.5, Math.round(v * 2) / 2).toFixed(2);
}

const SYSTEMS: Readonly<Record<number, readonly number[][]>> = {
  3: [[2], [2], [2, 3]],
  4: [[2], [3], [2, 3], [3]],
  5: [[2], [3], [2, 3], [3, 4], [4]],
};

/**
 * The season's bets: `bets` bets spread evenly over the matches, each by a player drawn by activity, placed at a
 * simulated time between the opening of the markets and kick-off (more of them close to kick-off). Combination legs
 * are other matches open at that moment. Deterministic in (seed, script, population, bets).
 */
export function planBets(
  script: Pick<SeasonScript, 'matches' | 'steps'>,
  options: PlanOptions,
): PlannedBet[] {
  const { seed, population } = options;
  const openBefore = options.openBeforeMs ?? 48 * HOUR;
  const closingBefore = options.closingBeforeMs ?? 5 * MIN;
  const minStake = options.minStake ?? 1;
  const maxStake = options.maxStake;
  const n = script.matches.length;
  if (n === 0 || options.bets <= 0) return [];
  const kickOff = script.matches.map((m) => m.row.kickOffMs);
  const byKickOff = [...kickOff.keys()].sort((a, b) => kickOff[a]! - kickOff[b]! || a - b);
  const sortedKo = byKickOff.map((i) => kickOff[i]!);
  const withClosing = new Set(script.steps.filter((s) => s.step === 'closing_odds').map((s) => s.match));
  const activity = population.map((b) => [b.index, b.activity] as const);

  /** Matches bettable at both `from` and `to` (opened before `from`, kick-off after `to` with a minute to spare). */
  const openAt = (from: number, to: number): number[] => {
    // kick-off in (to + 1 min, from + openBefore)
    let lo = 0;
    let hi = sortedKo.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sortedKo[mid]! <= to + MIN) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < sortedKo.length && sortedKo[i]! < from + openBefore; i++) out.push(byKickOff[i]!);
    return out;
  };

  const out: PlannedBet[] = [];
  for (let i = 0; i < options.bets; i++) {
    const rng = new Rng(`${seed}/plan/${i}`);
    const player = population[rng.weighted(activity)]!;
    // the anchor match: bets spread evenly over the season
    const anchor = Math.min(n - 1, Math.floor(((i + rng.next()) / options.bets) * n));
    const k = kickOff[anchor]!;
    let type = rng.weighted(Object.entries(player.types).map(([t, w]) => [t as BetKind, w] as const));
    const late = type === 'single' && withClosing.has(anchor) && rng.chance(player.lateShare);
    let at: number;
    let lookAt: number | undefined;
    if (late) {
      lookAt = k - closingBefore - Math.round((5 + rng.next() * 50) * MIN);
      at = k - closingBefore + Math.round((0.5 + rng.next() * 3.5) * MIN);
    } else {
      // between the opening (+1 min) and kick-off (−2 min), denser towards kick-off
      const u = rng.next();
      at = k - 2 * MIN - Math.round((openBefore - 3 * MIN) * u * u);
    }
    let legs = [anchor];
    if (type !== 'single') {
      const want =
        type === 'express'
          ? rng.weighted([
              [2, 0.4],
              [3, 0.3],
              [4, 0.2],
              [5, 0.1],
            ] as const)
          : rng.between(3, 5);
      const others = openAt(at, at).filter((m) => m !== anchor);
      legs = [anchor, ...rng.sample(others, want - 1)];
      if (type === 'system' && legs.length < 3) type = legs.length === 2 ? 'express' : 'single';
      if (type === 'express' && legs.length < 2) type = 'single';
      legs = legs.slice(0, type === 'single' ? 1 : legs.length);
    }
    let intent: PlannedBet['intent'] = late ? 'late' : undefined;
    let stakeValue = logUniform(rng, player.stakeMin, player.stakeMax);
    if (type !== 'single') stakeValue = Math.max(minStake, stakeValue / 2);
    if (late) {
      // a late bet is about the odds, not the limits
    } else if (rng.chance(0.01)) {
      stakeValue = minStake / 2;
      intent = 'under_min_stake';
    } else if (maxStake !== undefined && player.kind === 'high_roller' && rng.chance(0.15)) {
      stakeValue = maxStake * (1.2 + rng.next());
      intent = 'big_stake';
    }
    const bet: PlannedBet = {
      index: i,
      key: `replay-${seed}-${i}`,
      player: player.index,
      type,
      legs,
      stake: stakeText(stakeValue),
      strategy: rng.weighted(
        Object.entries(player.strategies).map(([s, w]) => [Number(s) as Strategy, w] as const),
      ),
      at,
      ...(lookAt !== undefined ? { lookAt } : {}),
      ...(intent ? { intent } : {}),
    };
    if (type === 'system') bet.systemSizes = rng.pick(SYSTEMS[legs.length]!);
    out.push(bet);
  }
  return out;
}

/** A selection as the frame API takes it. */
export interface ChosenSelection {
  sport_event_id: string;
  market_id: string;
  odd_id: string;
  /** The odds shown (the feed's 12-decimal value). */
  odds: string;
}

/** Is this odd open for bets in `event` (fixture not started or live, no bet stop, market and odd active)? */
export function isOpenOdd(event: SportEvent, marketId: string, oddId: string): boolean {
  if (event.bet_stop || (event.fixture.status !== 0 && event.fixture.status !== 1)) return false;
  const m = Object.hasOwn(event.markets, marketId) ? event.markets[marketId] : undefined;
  if (!m || m.status !== 0) return false;
  const o = Object.hasOwn(m.odds, oddId) ? m.odds[oddId] : undefined;
  return !!o && o.status === 0 && o.is_active;
}

/** The closing price of an odd (its value just before kick-off), when the season has one. */
export type ClosingOdds = (sportEventId: string, marketId: string, oddId: string) => string | undefined;

/**
 * What a player picks in each sport event, as shown now: a market (by the player's taste, among the open ones) and an
 * outcome in it, favourites more often (probability ∝ (1/odds)^favouriteBias), at the odds shown. Undefined when an
 * event shows no open market.
 */
export function chooseSelections(
  rng: Rng,
  bettor: Pick<Bettor, 'markets' | 'favouriteBias'> & { kind?: BettorKind },
  events: readonly SportEvent[],
  closing?: ClosingOdds,
): ChosenSelection[] | undefined {
  const out: ChosenSelection[] = [];
  for (const event of events) {
    const markets = Object.values(event.markets)
      .map((m) => ({ m, kind: marketKindOf(m.type_id) }))
      .filter(
        (x): x is { m: SportEvent['markets'][string]; kind: MarketKind } =>
          x.kind !== undefined && OUTCOMES[x.kind].some((o) => isOpenOdd(event, x.m.id, o)),
      );
    if (markets.length === 0) return undefined;
    const { m, kind } = rng.weighted(markets.map((x) => [x, bettor.markets[x.kind]] as const));
    const open = OUTCOMES[kind].filter((o) => isOpenOdd(event, m.id, o));
    // a sharp player backs, where there is one, an outcome whose price will shorten before kick-off
    const shortening =
      bettor.kind === 'sharp' && closing
        ? open.filter((o) => {
            const close = closing(event.id, m.id, o);
            return close !== undefined && Number(close) < Number(m.odds[o]!.value);
          })
        : [];
    const outcomes = shortening.length > 0 ? shortening : open;
    const oddId = rng.weighted(
      outcomes.map((o) => [o, (1 / Number(m.odds[o]!.value)) ** bettor.favouriteBias] as const),
    );
    out.push({ sport_event_id: event.id, market_id: m.id, odd_id: oddId, odds: m.odds[oddId]!.value });
  }
  return out;
}
