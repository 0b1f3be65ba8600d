/** What every step of one replay run shares: the plan, the platform's clients, the players' accounts, progress. */
import type { FeedReplica } from '@bookie/sdk';
import type { Speed } from './apply-script.js';
import type { platformClients } from './platform-clients.js';
import type { ReplayOptions, ReplayProgress } from './replay-options.js';
import type { ReplayPlan } from './replay-plan.js';
import type { ReplayTarget } from './replay-target.js';
import type { ReportedBets } from './reported-bets.js';

/** One replay run, as its steps (accounts, the timeline, settlement, the report) see it. */
export interface ReplayRun {
  target: ReplayTarget;
  options: ReplayOptions;
  /** When the run started (`performance.now()`). */
  started: number;
  seed: string;
  currency: string;
  speed: Speed;
  concurrency: number;
  signal: AbortSignal | undefined;
  planned: ReplayPlan;
  clients: ReturnType<typeof platformClients>;
  replica: FeedReplica;
  reported: ReportedBets | undefined;
  /** The start of the window of Bookie's reconciliation report. */
  windowFrom: Date;
  /** Each player's session token, by player index. */
  sessions: string[];
  /** The deposits made per player (decimal strings). */
  deposits: Map<string, string[]>;
  progress: ReplayProgress;
  /** Tells the caller the progress. */
  report: () => void;
}
