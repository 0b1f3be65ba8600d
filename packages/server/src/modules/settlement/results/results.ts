import type { LogEntry, SportEvent } from '@bookie/contracts';
import {
  compare,
  FIXTURE_STATUS,
  formatFeedOddValue,
  MARKET_STATUS,
  ODD_STATUS,
  type OddStatus,
  ONE,
  parseDecimal,
} from '@bookie/core';

/**
 * The result of one odd as settlement applies it to selections: odd status 0–6 (7 only by an operator), an
 * optional dead-heat factor (12-decimal string, only with status 1) and a reason (`status_reason` in callbacks).
 */
export interface OddResult {
  status: OddStatus;
  deadHeat: string | null;
  reason: string;
}

/** The result of an odd nobody resulted yet. */
export const NOT_RESULTED: OddResult = Object.freeze({ status: 0, deadHeat: null, reason: '' });

/** Reasons settlement writes itself (a bet_rollback writes its own reason, an operator theirs). */
export const REASONS = {
  fixtureCancelled: 'fixture_cancelled',
  fixtureAbandoned: 'fixture_abandoned',
  marketCancelled: 'market_cancelled',
} as const;

/** True when two results are the same (status, dead heat and reason). */
export function sameResult(a: OddResult, b: OddResult): boolean {
  return a.status === b.status && a.deadHeat === b.deadHeat && a.reason === b.reason;
}

/**
 * The dead-heat factor of an odd, carried by the feed in the event's free-form meta (the odd object is closed):
 * `meta.dead_heat.<market_id>.<odd_id> = "0.5"`, set with a `match_update` change `meta/dead_heat/<m>/<o>`.
 * A factor in (0, 1) applies to a win; 1, a missing or a malformed value means none.
 */
export function deadHeatOf(event: SportEvent, marketId: string, oddId: string): string | null {
  const dh = (event.meta as Record<string, unknown> | undefined)?.dead_heat;
  if (!isObject(dh)) return null;
  const byMarket = Object.hasOwn(dh, marketId) ? dh[marketId] : undefined;
  if (!isObject(byMarket)) return null;
  const raw = Object.hasOwn(byMarket, oddId) ? byMarket[oddId] : undefined;
  if (typeof raw !== 'string') return null;
  try {
    const h = parseDecimal(raw, { field: 'dead_heat', maxDecimals: 12 });
    if (h.num <= 0n || compare(h, ONE) >= 0) return null;
    return formatFeedOddValue(h);
  } catch {
    return null;
  }
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function oddStatusOf(raw: unknown): OddStatus {
  return typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw <= 6 ? (raw as OddStatus) : 0;
}

/**
 * The results of every odd of a market in a snapshot (docs/adr/0008-settlement.md "Results"), or undefined when
 * the market is not in the snapshot (then nothing changes). In order of precedence:
 * - fixture cancelled (5) or abandoned (6): every odd 5 refunded (the market could not be resulted);
 * - market cancelled (4): every odd 6 cancelled;
 * - otherwise the odd's own status, with the dead-heat factor of {@link deadHeatOf} on a win.
 */
export function marketResults(event: SportEvent, marketId: string): Map<string, OddResult> | undefined {
  const market = Object.hasOwn(event.markets, marketId) ? event.markets[marketId] : undefined;
  if (!market) return undefined;
  const fixture = event.fixture?.status;
  const out = new Map<string, OddResult>();
  for (const [oddId, odd] of Object.entries(market.odds)) {
    if (fixture === FIXTURE_STATUS.CANCELLED) {
      out.set(oddId, { status: ODD_STATUS.REFUNDED, deadHeat: null, reason: REASONS.fixtureCancelled });
    } else if (fixture === FIXTURE_STATUS.ABANDONED) {
      out.set(oddId, { status: ODD_STATUS.REFUNDED, deadHeat: null, reason: REASONS.fixtureAbandoned });
    } else if (market.status === MARKET_STATUS.CANCELLED) {
      out.set(oddId, { status: ODD_STATUS.CANCELLED, deadHeat: null, reason: REASONS.marketCancelled });
    } else {
      const status = oddStatusOf(odd.status);
      const deadHeat = status === ODD_STATUS.WIN ? deadHeatOf(event, marketId, oddId) : null;
      out.set(oddId, { status, deadHeat, reason: '' });
    }
  }
  return out;
}

/** What a log entry may change in settlement. */
export type Impact =
  | { kind: 'none' }
  /** Every market of the event (a re-sent snapshot, a fixture status, the dead-heat meta as a whole). */
  | { kind: 'event' }
  /** Only these markets. */
  | { kind: 'markets'; marketIds: Set<string> }
  | { kind: 'rollback' };

/**
 * Which markets of its event an entry can change the results of (docs/adr/0008-settlement.md "What the consumer
 * reacts to"): `match_new`; `markets` or a whole market, its status, its odds, an odd, an odd's status;
 * `fixture` or `fixture/status`; `meta`, `meta/dead_heat` and below; and `bet_rollback`. Odd values, `is_active`,
 * scores, bet stop and the rest never change a result.
 */
export function impactOf(entry: LogEntry): Impact {
  if (entry.type === 'bet_rollback') return { kind: 'rollback' };
  if (entry.type === 'match_new') return { kind: 'event' };
  const markets = new Set<string>();
  for (const key of Object.keys(entry.changes ?? {})) {
    const s = key.split('/');
    const [a, b, c, , e] = s;
    if (a === 'markets') {
      if (s.length === 1) return { kind: 'event' };
      if (
        s.length === 2 ||
        (s.length === 3 && (c === 'status' || c === 'odds')) ||
        (s.length === 4 && c === 'odds') ||
        (s.length === 5 && c === 'odds' && e === 'status')
      ) {
        markets.add(b as string);
      }
    } else if (a === 'fixture') {
      if (s.length === 1 || (s.length === 2 && b === 'status')) return { kind: 'event' };
    } else if (a === 'meta') {
      if (s.length === 1 || (s.length === 2 && b === 'dead_heat')) return { kind: 'event' };
      if (b === 'dead_heat' && c !== undefined) markets.add(c);
    }
  }
  return markets.size > 0 ? { kind: 'markets', marketIds: markets } : { kind: 'none' };
}
