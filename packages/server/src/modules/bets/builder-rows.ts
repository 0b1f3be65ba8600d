import type { SportEvent } from '@bookie/contracts';
import { type BuilderQuote, formatFeedOddValue, type Rational } from '@bookie/core';
import type { NewBuilder } from './bet-writes.repo.js';
import { eventInfo } from './event-info.js';
import { selectionNames } from './selection-names.js';

/** A builder as requested: its sport event, its inner legs and the combined odds the player saw. */
export interface BuilderRequest {
  sport_event_id: string;
  legs: ReadonlyArray<{ market_id: string; odd_id: string }>;
  odds: Rational;
}

/**
 * The rows of a bet's builders as recorded (docs/adr/0043-bet-builder-bets.md): each builder's combined odds asked
 * for and accepted (`accepted`, by builder index; the requested odds where absent), the model's probabilities of its
 * price (`quotes`; 0 where it was not priced: a refused builder), the builder margin, and each inner leg with the
 * feed's odds of the leg and the event's facts at this moment (`unknownInfo` where the event or market is not in the
 * book: a declined bet is recorded too).
 */
export function builderRows(input: {
  builders: readonly BuilderRequest[];
  events: ReadonlyMap<string, SportEvent | undefined>;
  quotes: readonly (BuilderQuote | undefined)[];
  accepted?: readonly Rational[];
  margin: Rational;
  /** Now, unix ms: the update time of a leg whose event is unknown. */
  at: number;
  unknownInfo: () => Record<string, unknown>;
}): NewBuilder[] {
  const twelve = formatFeedOddValue;
  return input.builders.map((b, i) => {
    const event = input.events.get(b.sport_event_id);
    const quote = input.quotes[i];
    return {
      sportEventId: b.sport_event_id,
      requestedOdds: formatFeedOddValue(b.odds),
      odds: formatFeedOddValue(input.accepted?.[i] ?? b.odds),
      probability: quote ? twelve(quote.probability) : '0',
      refundProbability: quote ? twelve(quote.refundProbability) : '0',
      margin: twelve(input.margin),
      legs: b.legs.map((l) => {
        const market =
          event && Object.hasOwn(event.markets, l.market_id) ? event.markets[l.market_id] : undefined;
        const odd = market && Object.hasOwn(market.odds, l.odd_id) ? market.odds[l.odd_id] : undefined;
        const value = odd?.value ?? '1';
        return {
          sportEventId: b.sport_event_id,
          marketId: l.market_id,
          oddId: l.odd_id,
          requestedOdds: value,
          odds: value,
          oddUpdatedAt: new Date(event ? event.updated_at : input.at),
          matchStatus: event?.fixture.status ?? 0,
          eventInfo: (event && market
            ? eventInfo(event, l.market_id)
            : input.unknownInfo()) as unknown as Record<string, unknown>,
          names: event && odd ? selectionNames(event, l.market_id, l.odd_id) : null,
        };
      }),
    };
  });
}
