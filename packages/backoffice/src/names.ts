import { competitorsByPosition, fillTemplate } from '@bookie/core/feed-template';
/**
 * Names the backoffice shows in place of codes: sport events, markets and outcomes from the feed's templates
 * (`{$competitor1}`, `{total}`, `{-hcp}`), and the status numbers of the feed contract.
 */

/** The parts of a sport event snapshot the names are made from. */
export interface NamedEvent {
  fixture: {
    template: string;
    sport_id: string;
    tournament: { id?: string; name: string };
    competitors: Record<string, { name: string; template_position: number }>;
  };
}
/** The parts of a market the names are made from. */
export interface NamedMarket {
  type_id: number;
  template: string;
  specifiers: Record<string, string>;
}

/** Fills a feed template from the event's competitors and the market's specifiers. */
export function fill(template: string, event: NamedEvent, market?: NamedMarket): string {
  return fillTemplate(template, competitorsByPosition(event.fixture.competitors), market?.specifiers ?? {});
}

/** The market's name: its template filled, else its type with its specifiers. */
export function marketName(event: NamedEvent, market: NamedMarket): string {
  if (market.template) return fill(market.template, event, market);
  const spec = Object.entries(market.specifiers)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return `${MARKET_TYPES[market.type_id] ?? `Market type ${market.type_id}`}${spec ? ` (${spec})` : ''}`;
}

/** The outcome's name: its template filled, else its id. */
export function outcomeName(
  event: NamedEvent,
  market: NamedMarket,
  odd: { id: string; template: string },
): string {
  return odd.template ? fill(odd.template, event, market) : `Outcome ${odd.id}`;
}

/** Market type names (the common ones). */
export const MARKET_TYPES: Record<number, string> = {
  1: '1X2',
  10: 'Double chance',
  11: 'Draw no bet',
  14: 'Handicap (European)',
  16: 'Asian handicap',
  18: 'Total goals',
  29: 'Both teams to score',
};

/** Sport names by sport id. */
export const SPORTS: Record<string, string> = {
  football: 'Football',
  basketball: 'Basketball',
  tennis: 'Tennis',
  'ice-hockey': 'Ice hockey',
  volleyball: 'Volleyball',
  handball: 'Handball',
  baseball: 'Baseball',
  esports: 'Esports',
};

/** Fixture status names by code (the feed contract). */
export const FIXTURE_STATUS = [
  'not started',
  'live',
  'suspended',
  'ended',
  'closed',
  'cancelled',
  'abandoned',
  'delayed',
  'unknown',
];
/** Market status names by code (the feed contract): bets only on active. */
export const MARKET_STATUS = ['active', 'suspended', 'deactivated', 'resulted', 'cancelled'];
/** Market status codes the trader switches between. */
export const MARKET_ACTIVE = 0;
export const MARKET_SUSPENDED = 1;
