import type { OptionalCallback } from '@bookie/contracts';
import type { ExpectedBalance } from './balance.js';
import type { CallbackAnswer, CallbackClient } from './callback-client.js';

/** The partner broke a rule of the contract. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
}

/** An optional callback the partner does not implement (404, 405 or 501, the optional callbacks rule). */
export class Unsupported extends Error {
  override name = 'Unsupported';
}

/** A scenario the check cannot make the partner produce; it reports what a correct answer looks like. */
export class NotProvoked extends Error {
  override name = 'NotProvoked';
}

/** What a scenario works with. */
export interface ScenarioContext {
  client: CallbackClient;
  balance: ExpectedBalance;
  playerId: string;
  /** A bet id unique to this run. */
  newBetId(): string;
  /** The player's available balance at the partner, when the partner's balance can be read. */
  observedAvailable(): Promise<string | undefined>;
  /** Answers seen, for the report (status codes of each callback sent). */
  record(callback: string, answer: CallbackAnswer): void;
  /** How to provoke the final place errors the check cannot provoke alone. */
  provoke: Provocations;
}

/** One scenario: a stable id, the contract rule it checks, and how to play it. */
export interface Scenario {
  id: string;
  rule: string;
  /** The callbacks it needs are optional for the partner (insurance, cash-out, heartbeat). */
  optional?: boolean;
  /** The optional callback capability it checks (the optional callbacks rule). */
  capability?: OptionalCallback;
  run(ctx: ScenarioContext): Promise<void>;
}

/** Stake of every scenario bet. */
export const STAKE = '2.000000';

/** Odds of every scenario bet (a single). */
export const ODDS = '1.850000';

/** What makes the partner answer a final place error other than `not_enough_balance`; only the partner knows. */
export interface Provocations {
  /** `Foreign-Params` of a session the partner does not know: its place answer must be `auth_session_unknown`. */
  unknownSession?: Record<string, unknown> | undefined;
  /** `Foreign-Params` of a session the partner holds expired: its answer must be `auth_credentials_expired`. */
  expiredSession?: Record<string, unknown> | undefined;
  /** A player whose limits refuse a bet of `STAKE`: the answer must be `player_limit_crossed` with `data.types`. */
  limitedPlayer?: string | undefined;
}
