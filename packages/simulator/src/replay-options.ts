/** What a replay is asked to do ({@link ReplayOptions}), what it reports while it runs and what it returns. */
import type { Speed } from './apply-script.js';
import type { ParsedSeason } from './football-data.js';
import type { InPlayPlanOptions } from './in-play.js';
import type { BetsOutLine, ReplayReport } from './report.js';
import type { SeasonScript } from './season-script.js';

/** What the runner reports while it runs. */
export interface ReplayProgress {
  phase: 'setup' | 'running' | 'settling' | 'collecting' | 'done';
  actionsDone: number;
  actionsTotal: number;
  stepsDone: number;
  stepsTotal: number;
  betsDone: number;
  betsTotal: number;
  accepted: number;
  notAccepted: number;
  matchesEnded: number;
  matchesTotal: number;
  /** Simulated time of the latest action started (unix ms). */
  simulatedAt: number;
  /** The latest full-time score, e.g. `Arsenal 2-1 Chelsea`. */
  lastResult?: string;
}

/** Options of {@link runReplay}. */
export interface ReplayOptions {
  seasons: readonly ParsedSeason[];
  /** Seed of the bettors (default `"1"`). */
  seed?: string;
  /** Bets to place in all (default {@link BETS_PER_MATCH} per match). */
  bets?: number;
  /** Players (default one per 30 bets, at least 10). */
  players?: number;
  /** `'max'` (default) or N× real time. */
  speed?: Speed;
  /** With a numeric speed: the longest real wait between two actions, ms (idle days pass quickly). */
  maxWaitMs?: number;
  /**
   * Actions in flight at once (default 24). Matches in play, and the steps that wait for one to end, are bounded by
   * {@link InPlayOptions.matchesAtOnce} instead.
   */
  concurrency?: number;
  /** The white label's currency (default EUR). */
  currency?: string;
  /** The white label's stake limits, EUR, for the plan (a few bets cross them on purpose). */
  minStake?: number;
  maxStake?: number;
  /** How long to wait for settlement after the last trading command (default 180 s). */
  settleTimeoutMs?: number;
  /**
   * The liability limit per outcome (EUR, prematch and live) to configure on the white label before the run; the
   * report then adds the risk section (needs `target.whiteLabelId`).
   */
  riskLimitEur?: string;
  /**
   * The in-play phase (docs/adr/0026-in-play-replay.md): each match played minute by minute with live prices, bet
   * stops at goals, live bets under a bet delay and cash-outs. Off when absent. Needs `target.whiteLabelId`.
   */
  inPlay?: InPlayOptions;
  signal?: AbortSignal;
  onProgress?: (p: Readonly<ReplayProgress>) => void;
}

/** Options of the in-play phase. */
export interface InPlayOptions {
  /** Live bets per match (default 6). */
  liveBetsPerMatch?: number;
  /** In-play players, their own population (default one per 8 live bets, at least 10). */
  players?: number;
  /** Minutes between two price updates of a quiet spell (default 1; see {@link InPlayPlanOptions.priceEveryMin}). */
  priceEveryMin?: number;
  /** The white label's live bet delay, whole seconds, set before the run (default 1). */
  betDelayS?: number;
  /**
   * Matches in play at once (default {@link MATCHES_IN_PLAY_AT_ONCE}): the matches whose play overlaps in simulated
   * time run side by side, each one's minutes, bets and cash-outs still strictly in order.
   */
  matchesAtOnce?: number;
}

/** Matches in play at once when none is given: a Saturday afternoon's kick-offs. */
export const MATCHES_IN_PLAY_AT_ONCE = 10;

/** What {@link runReplay} returns. */
export interface ReplayResult {
  report: ReplayReport;
  /** One audit line per placed bet (`--bets-out`), in plan order. */
  lines: BetsOutLine[];
  script: SeasonScript;
}

/** Bets per match when none is given: 14, so a season of 380 matches makes 5,320 bets. */
export const BETS_PER_MATCH = 14;
