/** The replay's plan: the season script, the players and their bets, the matches played in play, and the timeline. */
import { makePopulation, type PlannedBet, planBets } from './bettors.js';
import { type InPlayPlan, planInPlay } from './in-play.js';
import { BETS_PER_MATCH, type ReplayOptions } from './replay-options.js';
import { buildSeasonScript, type ScriptStep } from './season-script.js';

/** Offsets of the in-play script: full time after the longest match (45 + 4 + 15 + 45 + 6 minutes). */
const IN_PLAY_TIMELINE = { fullTime: 125 * 60_000, results: 126 * 60_000, ended: 127 * 60_000 };

/** One action of the timeline, in simulated time. */
export type Action =
  | { at: number; rank: 0; seq: number; kind: 'step'; step: ScriptStep }
  | { at: number; rank: 0; seq: number; kind: 'in_play'; plan: InPlayPlan }
  | { at: number; rank: 1 | 2; seq: number; kind: 'look' | 'place'; bet: PlannedBet };

/**
 * The timeline: trading steps and bet actions in simulated time (steps first on a tie, then looks, then bets); a
 * match's in-play phase starts at its kick-off, after the kick-off steps.
 */
export function buildTimeline(
  steps: readonly ScriptStep[],
  plan: readonly PlannedBet[],
  inPlay: readonly InPlayPlan[] = [],
): Action[] {
  const actions: Action[] = [];
  let seq = 0;
  for (const step of steps) actions.push({ at: step.at, rank: 0, seq: seq++, kind: 'step', step });
  for (const p of inPlay) {
    const kickOff = (p.minutes[0]?.at ?? 0) - 60_000;
    actions.push({ at: kickOff, rank: 0, seq: seq++, kind: 'in_play', plan: p });
  }
  for (const bet of plan) {
    if (bet.lookAt !== undefined) actions.push({ at: bet.lookAt, rank: 1, seq: seq++, kind: 'look', bet });
    actions.push({ at: bet.at, rank: 2, seq: seq++, kind: 'place', bet });
  }
  actions.sort((a, b) => a.at - b.at || a.rank - b.rank || a.seq - b.seq);
  return actions;
}

/** What {@link planReplay} plans. */
export type ReplayPlan = ReturnType<typeof planReplay>;

/** Plans a replay: the season script, the pre-match players and their bets, the in-play players and matches. */
export function planReplay(options: ReplayOptions) {
  const seed = options.seed ?? '1';
  const inPlay = options.inPlay;
  const script = buildSeasonScript(options.seasons, inPlay ? IN_PLAY_TIMELINE : {});
  const totalBets = options.bets ?? script.matches.length * BETS_PER_MATCH;
  const population = makePopulation(seed, options.players ?? Math.max(10, Math.ceil(totalBets / 30)));
  const plan = planBets(script, {
    seed,
    bets: totalBets,
    population,
    ...(options.minStake !== undefined ? { minStake: options.minStake } : {}),
    ...(options.maxStake !== undefined ? { maxStake: options.maxStake } : {}),
  });
  // in play: its own players, its own plan per match; the half-time score is sent by the in-play phase
  const livePlayers = inPlay
    ? makePopulation(
        `${seed}/in-play`,
        inPlay.players ??
          Math.max(10, Math.ceil((script.matches.length * (inPlay.liveBetsPerMatch ?? 6)) / 8)),
      ).map((b, i) => ({
        ...b,
        index: population.length + i,
        id: `live-${b.id}`,
      }))
    : [];
  const inPlayPlans = inPlay
    ? script.matches.flatMap((m, i) => {
        const p = planInPlay(m, i, {
          seed,
          players: livePlayers.length,
          ...(inPlay.liveBetsPerMatch !== undefined ? { liveBets: inPlay.liveBetsPerMatch } : {}),
          ...(inPlay.priceEveryMin !== undefined ? { priceEveryMin: inPlay.priceEveryMin } : {}),
        });
        return p ? [p] : [];
      })
    : [];
  const steps = inPlay
    ? script.steps.filter((s) => !(s.step === 'half_time' && inPlayPlans.some((p) => p.match === s.match)))
    : script.steps;
  const actions = buildTimeline(steps, plan, inPlayPlans);
  const everyone = [...population, ...livePlayers];
  return { script, population, plan, livePlayers, inPlayPlans, steps, actions, everyone };
}
