import type { SportEvent } from '@bookie/contracts';
import {
  DomainError,
  EXPRESS_CAP_EUR,
  expressCapInCurrency,
  parseDecimal,
  type Rational,
} from '@bookie/core';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { Config } from '../../platform/config.js';
import { BetEvents } from '../bets/index.js';
import type { LogHub } from '../feed/index.js';
import type { WhiteLabel } from '../tenants/index.js';
import { cachedWhiteLabels } from '../tenants/index.js';
import type { SettlementLimits } from './results/decide.js';

/** The server's replica of the book, as settlement reads it (the feed's catalog). */
export interface SettlementCatalog {
  readonly version: bigint | undefined;
  getEvent(id: string): SportEvent | undefined;
  waitFor(version: bigint, timeoutMs?: number): Promise<void>;
}

/** What every settlement use case needs. */
export interface SettlementDeps {
  database: Database;
  clock: Clock;
  logger: Logger;
  betEvents: BetEvents;
  whiteLabels: { get(id: string): Promise<WhiteLabel> };
  /** The D17 cap in a currency, or undefined when no EUR rate is configured for it. */
  expressCap(currency: string): Rational | undefined;
  /** Wakes this process's callback dispatcher after a commit (other processes are woken by NOTIFY). */
  kick(): void;
  /** Tells the risk engine's odds shading which outcomes' exposure changed (D39), after a commit. */
  exposureChanged?(odds: Array<{ sport_event_id: string; market_id: string; odd_id: string }>): void;
  /**
   * The current snapshot of a sport event, when this process has the replica: settle callbacks then carry the
   * selections' current match status, odd time and live/prematch state (without it, those captured at placement).
   */
  currentEvent?: (sportEventId: string) => SportEvent | undefined;
}

/** What the consumer needs besides: the log and the replica. */
export interface ConsumerDeps extends SettlementDeps {
  hub: LogHub;
  catalog: SettlementCatalog | undefined;
}

/** The D17 cap per currency from the configured EUR rates (`EUR_RATES`), as placement computes it. */
export function expressCapFromRates(
  rates: Config['bets']['eurRates'],
): (currency: string) => Rational | undefined {
  return (currency) => {
    const rate = rates[currency];
    return rate
      ? expressCapInCurrency(parseDecimal(rate, { field: 'EUR_RATES', maxDecimals: 12 }))
      : undefined;
  };
}

/** Settlement's dependencies for a command-line process (no log, no dispatcher: NOTIFY wakes the servers'). */
export function cliSettlementDeps(database: Database, config: Config, logger: Logger): SettlementDeps {
  return {
    database,
    clock: { now: () => Date.now() },
    logger,
    betEvents: new BetEvents(),
    whiteLabels: cachedWhiteLabels({ database, clock: { now: () => Date.now() } }),
    expressCap: expressCapFromRates(config.bets.eurRates),
    kick: () => {},
  };
}

/** The key of a white label and a currency in a limits map. */
export function limitsKey(whiteLabelId: string, currency: string): string {
  return `${whiteLabelId}\u0000${currency}`;
}

/**
 * The caps of settlements (DECISIONS D17) for these white labels and currencies: the express cap in the currency
 * (the EUR cap when no rate is configured any more: an accepted bet is always settled) and the white label's
 * current max payout. Read before a batch transaction opens (on PGlite a transaction holds the only connection).
 */
export async function prefetchLimits(
  deps: SettlementDeps,
  owners: Iterable<{ whiteLabelId: string; currency: string }>,
  into: Map<string, SettlementLimits> = new Map(),
): Promise<Map<string, SettlementLimits>> {
  for (const { whiteLabelId, currency } of owners) {
    const key = limitsKey(whiteLabelId, currency);
    if (into.has(key)) continue;
    let expressCap = deps.expressCap(currency);
    if (!expressCap) {
      deps.logger.warn({ currency }, 'settlement: no EUR rate for the currency; using the EUR express cap');
      expressCap = EXPRESS_CAP_EUR;
    }
    let maxPayout: Rational | undefined;
    try {
      const wl = await deps.whiteLabels.get(whiteLabelId);
      if (wl.limits.maxPayout) {
        maxPayout = parseDecimal(wl.limits.maxPayout, { field: 'max_payout', maxDecimals: 6 });
      }
    } catch (err) {
      // a white label that is gone has no limit; any other failure is retried by the caller
      if (!(err instanceof DomainError && err.code === 'not_found')) throw err;
    }
    into.set(key, { expressCap, maxPayout });
  }
  return into;
}
