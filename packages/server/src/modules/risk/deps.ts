import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { RiskConfig } from '../../platform/config.js';
import type { OddsShader } from './odds-shader.js';
import type { RiskBook } from './risk-book.js';

/** What the risk engine's use cases need. */
export interface RiskDeps {
  database: Database;
  clock: Clock;
  config: RiskConfig;
  /** Units of each currency per EUR (`EUR_RATES`). */
  eurRates: Readonly<Record<string, string>>;
  /** The cached limits, groups and delays. */
  book: RiskBook;
  /** Odds shading (D39); undefined when RISK_SHADE_MAX is 0 or the engine is off. */
  shader?: OddsShader;
}
