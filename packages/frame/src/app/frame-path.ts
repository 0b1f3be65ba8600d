import type { SportEvent } from '@bookie/contracts';
import type { Nav, Route } from './state.js';

/** The frame's place as a path a host can keep and open again with {@link parseFramePath}. */
export function framePath(route: Route, nav: Nav): string {
  if (route === 'history') return '/history';
  if (nav.eventId) return `/event/${encodeURIComponent(nav.eventId)}`;
  const base = route === 'live' ? '/live' : '/upcoming';
  if (nav.query) return `${base}/search/${encodeURIComponent(nav.query)}`;
  if (nav.sport)
    return `${base}/sport/${encodeURIComponent(nav.sport)}${nav.tournament ? `/${encodeURIComponent(nav.tournament)}` : ''}`;
  return base;
}

/**
 * The place of the frame a path names (a host's deep link): `/upcoming`, `/live`, `/history`, `/event/{id}`,
 * `{/upcoming|/live}/sport/{sport}[/{tournament id}]`, `{/upcoming|/live}/search/{text}`. An event's page is live
 * when `events` knows the event is live.
 *
 * @throws RangeError naming the path when it is none of these.
 */
export function parseFramePath(path: string, events: Record<string, SportEvent>): { route: Route; nav: Nav } {
  const parts = path
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .map(decodeURIComponent);
  const [head = '', ...rest] = parts;
  const nav: Nav = { sport: undefined, tournament: undefined, eventId: undefined, query: '' };
  let route: Route;
  if (head === 'history') route = 'history';
  else if (head === 'event' && rest[0]) {
    route = events[rest[0]]?.fixture.status === 1 ? 'live' : 'prematch';
    nav.eventId = rest[0];
  } else if (head === 'live' || head === 'upcoming' || head === '') {
    route = head === 'live' ? 'live' : 'prematch';
    if (rest[0] === 'sport' && rest[1]) {
      nav.sport = rest[1];
      nav.tournament = rest[2];
    } else if (rest[0] === 'search' && rest[1] !== undefined) nav.query = rest[1];
    else if (rest.length > 0) throw new RangeError(`unknown frame path ${JSON.stringify(path)}`);
  } else throw new RangeError(`unknown frame path ${JSON.stringify(path)}`);
  return { route, nav };
}
