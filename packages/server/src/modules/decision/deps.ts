import type { Rational } from '@bookie/core';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { Catalog } from '../bets/index.js';
import type { RiskDeps } from '../risk/index.js';

/** The platform's settings the one decision reads, the same for every way a bet arrives. */
export interface DecisionSettings {
  /** Strategy-1 tolerance, a relative fraction (spec 01 strategy 1). */
  oddsTolerance: Rational;
  /** The express cap of D17 in a currency, or undefined when no EUR rate is configured for it. */
  expressCap(currency: string): Rational | undefined;
  /** Most combinations a system bet may have (`SYSTEM_MAX_COMBINATIONS`); more is declined `bet_type`. */
  maxSystemCombinations?: number;
}

/** What the one decision reads: the database (risk facts, bet times, bonuses), the catalogue and the risk engine. */
export interface DecisionDeps {
  database: Database;
  clock: Clock;
  /** The live book the selections are decided against. */
  catalog: Catalog;
  settings: DecisionSettings;
  /** The risk engine (D37, D38, D34); undefined when `RISK_ENGINE=off`. */
  risk?: RiskDeps;
}
