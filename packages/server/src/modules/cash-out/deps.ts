import type { SportEvent } from '@bookie/contracts';
import { parseDecimal, type Rational } from '@bookie/core';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { PlatformServices } from '../../platform/services.js';
import type { SettlementDeps } from '../settlement/index.js';
import { marginOf } from './cash-out.repo.js';
import type { MarginDeps } from './cash-out-margin.js';

/** What the cash-out use cases need. */
export interface CashOutDeps {
  database: Database;
  clock: Clock;
  /** The current snapshot of a sport event (this process's replica of the feed). */
  currentEvent(sportEventId: string): SportEvent | undefined;
  /** The express cap in a currency, undefined when no EUR rate is configured for it. */
  expressCap(currency: string): Rational | undefined;
  /** A white label's max payout, when it has one. */
  maxPayout(whiteLabelId: string): Promise<Rational | undefined>;
  /**
   * Whether a cash-out of a frame bet can be paid to the white label: its cash-out callbacks are supported (not
   * announced unsupported, not learnt unsupported from a 404, 405 or 501). Read through the white label cache.
   */
  payable(whiteLabelId: string): Promise<boolean>;
  /** The white label's cash-out margin, a fraction in [0, 1): its own, else the configured default. */
  margin(whiteLabelId: string): Promise<Rational>;
  /** The key quotes are signed with (read once per process). */
  quoteKey(): Promise<string>;
  /** How long a quote holds, ms. */
  quoteTtlMs: number;
  /** Settlement, to settle again a bet whose cash-out is taken back. */
  settlement: SettlementDeps;
  /** Wakes this process's callback dispatcher after a commit. */
  kick(): void;
}

/** The operator's margin settings out of the app's: the database and the configured default. */
export function marginDeps(app: Pick<PlatformServices, 'database' | 'config'>): MarginDeps {
  return { database: app.database, defaultMargin: parseMoneyOf(app.config.bets.cashOutMargin) };
}

/** A white label's margin, kept `cacheMs` (`RISK_SETTINGS_CACHE_MS`, as the risk settings) before it is read again. */
export function marginsCached(database: Database, fallback: Rational, clock: Clock, cacheMs: number) {
  const cache = new Map<string, { at: number; margin: Rational }>();
  return async (whiteLabelId: string): Promise<Rational> => {
    const hit = cache.get(whiteLabelId);
    if (hit && clock.now() - hit.at < cacheMs) return hit.margin;
    const own = await marginOf(database.db, whiteLabelId);
    const margin = own ? parseMoneyOf(own) : fallback;
    cache.set(whiteLabelId, { at: clock.now(), margin });
    return margin;
  };
}

export function once(read: () => Promise<string>): () => Promise<string> {
  let value: Promise<string> | undefined;
  return () => {
    value ??= read().catch((err) => {
      value = undefined;
      throw err;
    });
    return value;
  };
}

export function parseMoneyOf(v: string): Rational {
  return parseDecimal(v, { field: 'amount', maxDecimals: 12 });
}
