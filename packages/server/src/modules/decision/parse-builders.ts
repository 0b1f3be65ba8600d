import { parseOdds } from '@bookie/core';
import type { RequestedBuilder } from './validate-placement.js';

/** A builder as a request body carries it: the combined odds in `odds` (frame) or `value` (MTS, advisory). */
interface BuilderBody {
  sport_event_id: string;
  legs: ReadonlyArray<{ market_id: string; specifiers?: Record<string, string>; odd_id: string }>;
  odds?: string;
  value?: string;
  quote?: string;
}

/**
 * Parses a body's `bet_builders` into exact builders: the combined odds (named `odds` in the frame, `value` in MTS
 * and advisory bodies) and the legs as sent, each on the builder's sport event.
 *
 * @throws DomainError validation_error naming `bet_builders[i].odds` (or `.value`).
 */
export function parseBuilders(
  list: readonly BuilderBody[] | undefined,
  oddsField: 'odds' | 'value',
): RequestedBuilder[] {
  return (list ?? []).map((b, i) => ({
    sport_event_id: b.sport_event_id,
    legs: b.legs.map((l) => ({
      market_id: l.market_id,
      odd_id: l.odd_id,
      ...(l.specifiers !== undefined ? { specifiers: l.specifiers } : {}),
    })),
    odds: parseOdds(b[oddsField], `bet_builders[${i}].${oddsField}`, { maxDecimals: 12 }),
    ...(b.quote !== undefined ? { quote: b.quote } : {}),
  }));
}
