import type { Market, Odd, SportEvent } from '@bookie/contracts';
import { BuilderPanel } from './builder-view.js';
import { en, type MessageKey, t } from './i18n.js';
import {
  clockOf,
  eventTitle,
  MARKET_KINDS,
  type MarketKind,
  marketKind,
  marketName,
  outcomeName,
  scoreOf,
} from './markets.js';
import { oddButtonState } from './odds.js';
import type { FrameStore, SlipSelection } from './store.js';

const OPEN = 0; // odd and market status "active" (the feed contract)
const SUSPENDED = 1;

/** A sport's name in the player's language (its id, capitalised, when the frame has no name for it). */
export function sportName(locale: string, id: string): string {
  const key = `sport.${id}` as MessageKey;
  return key in en ? t(locale, key) : id.charAt(0).toUpperCase() + id.slice(1).replace(/_/g, ' ');
}

const regions = new Map<string, Intl.DisplayNames | undefined>();
/** A country's name in the player's language from its ISO code (the feed's `country_code`). */
export function countryName(locale: string, code: string | undefined): string | undefined {
  if (!code) return undefined;
  if (!regions.has(locale)) {
    try {
      regions.set(locale, new Intl.DisplayNames([locale], { type: 'region' }));
    } catch {
      regions.set(locale, undefined);
    }
  }
  try {
    return regions.get(locale)?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Markets in display order: by kind (main, goals, handicaps, other), then as the feed listed them. */
function ordered(event: SportEvent): Market[] {
  const ms = Object.values(event.markets);
  return ms
    .map((m, i) => ({ m, i, k: MARKET_KINDS.indexOf(marketKind(m)) }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .map((x) => x.m);
}

/** The events of the current tab (upcoming or live), narrowed by the player's sport, tournament and search. */
function listed(store: FrameStore): SportEvent[] {
  const s = store.state;
  const wanted = s.route === 'live' ? [1, 2] : [0];
  const q = s.nav.query.trim().toLocaleLowerCase(s.locale);
  return Object.values(s.events)
    .filter((e) => wanted.includes(e.fixture.status))
    .filter(
      (e) =>
        q === '' ||
        eventTitle(e).toLocaleLowerCase(s.locale).includes(q) ||
        e.fixture.tournament.name.toLocaleLowerCase(s.locale).includes(q),
    )
    .sort((a, b) => a.fixture.start_time.localeCompare(b.fixture.start_time));
}

/** The book: sports, then their tournaments by country, then the events; a search by team or tournament. */
export function Book({ store }: { store: FrameStore }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  if (!s.eventsLoaded) return <p class="muted">{tr('events.loading')}</p>;
  const all = listed(store);
  const sports = new Map<string, number>();
  for (const e of all) sports.set(e.fixture.sport_id, (sports.get(e.fixture.sport_id) ?? 0) + 1);
  const sport = s.nav.sport && sports.has(s.nav.sport) ? s.nav.sport : undefined;
  const inSport = all.filter((e) => !sport || e.fixture.sport_id === sport);
  // tournaments of the sport, by country (where the feed gives one)
  const tournaments = new Map<string, { name: string; country: string | undefined; n: number }>();
  for (const e of inSport) {
    const tn = e.fixture.tournament;
    const known = tournaments.get(tn.id);
    if (known) known.n++;
    else tournaments.set(tn.id, { name: tn.name, country: countryName(s.locale, tn.country_code), n: 1 });
  }
  const byCountry = new Map<string, [string, { name: string; n: number }][]>();
  for (const [id, x] of tournaments) {
    const c = x.country ?? tr('nav.other');
    byCountry.set(c, [...(byCountry.get(c) ?? []), [id, x]]);
  }
  const tournament = s.nav.tournament && tournaments.has(s.nav.tournament) ? s.nav.tournament : undefined;
  const list = inSport.filter((e) => !tournament || e.fixture.tournament.id === tournament);
  const groups = new Map<string, SportEvent[]>();
  for (const e of list)
    groups.set(e.fixture.tournament.id, [...(groups.get(e.fixture.tournament.id) ?? []), e]);
  return (
    <div data-testid="book">
      <div class="search">
        <label class="sr" for="bk-search">
          {tr('nav.searchLabel')}
        </label>
        <input
          id="bk-search"
          type="search"
          data-testid="search"
          placeholder={tr('nav.search')}
          value={s.nav.query}
          onInput={(e) => store.go({ query: (e.target as HTMLInputElement).value, eventId: undefined })}
        />
      </div>
      <nav aria-label={tr('nav.sports')} class="chips" data-testid="sports">
        <button
          type="button"
          class="chip"
          aria-pressed={!sport}
          onClick={() => store.go({ sport: undefined, tournament: undefined })}
        >
          {tr('nav.allSports')}
        </button>
        {[...sports].map(([id, n]) => (
          <button
            type="button"
            class="chip"
            key={id}
            aria-pressed={sport === id}
            data-testid="sport"
            data-sport-id={id}
            onClick={() => store.go({ sport: id, tournament: undefined })}
          >
            {sportName(s.locale, id)} <span class="n">{n}</span>
          </button>
        ))}
      </nav>
      {sport && (
        <nav aria-label={tr('nav.tournaments')} class="tours" data-testid="tournaments">
          <button
            type="button"
            class="chip"
            aria-pressed={!tournament}
            onClick={() => store.go({ tournament: undefined })}
          >
            {tr('nav.allTournaments')}
          </button>
          {[...byCountry].map(([country, ts]) => (
            <div class="country" key={country}>
              <span class="cn">{country}</span>
              {ts.map(([id, x]) => (
                <button
                  type="button"
                  class="chip"
                  key={id}
                  aria-pressed={tournament === id}
                  data-testid="tournament"
                  data-tournament-id={id}
                  onClick={() => store.go({ tournament: id })}
                >
                  {x.name} <span class="n">{x.n}</span>
                </button>
              ))}
            </div>
          ))}
        </nav>
      )}
      {list.length === 0 ? (
        <p class="muted" data-testid="no-events">
          {s.nav.query.trim() ? tr('events.noMatch', { q: s.nav.query.trim() }) : tr('events.empty')}
        </p>
      ) : (
        <div data-testid="events">
          {[...groups].map(([id, events]) => {
            const tn = events[0]!.fixture.tournament;
            const country = countryName(s.locale, tn.country_code);
            return (
              <section key={id} aria-labelledby={`bk-t-${id}`}>
                <h2 class="tn" id={`bk-t-${id}`}>
                  {country ? `${country} · ` : ''}
                  {tn.name}
                </h2>
                {events.slice(0, 40).map((e) => (
                  <EventCard store={store} event={e} key={e.id} />
                ))}
              </section>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** When an event starts, or its live score and clock. */
function EventState({ store, event }: { store: FrameStore; event: SportEvent }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  if (event.fixture.status === 0) {
    const when = new Date(event.fixture.start_time).toLocaleString(s.locale, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'UTC',
    });
    return <span class="time">{when} UTC</span>;
  }
  const score = scoreOf(event);
  const clock = clockOf(event);
  return (
    <span class="livebox" data-testid="live-state">
      <span class="live">{tr('events.live')}</span>
      {score && (
        <span class="score">
          <span class="sr">{tr('event.score')} </span>
          <b data-testid="score">
            {score[0]} : {score[1]}
          </b>
        </span>
      )}
      {clock?.minute && (
        <span class="clock" data-testid="clock">
          {tr('event.minute', { m: clock.minute })}
        </span>
      )}
      {clock?.period && !clock.minute && (
        <span class="clock" data-testid="clock">
          {tr('event.period', { p: clock.period })}
        </span>
      )}
      {(event.bet_stop || event.fixture.status === 2) && (
        <span class="stop" data-testid="bet-stop">
          {tr('event.betStop')}
        </span>
      )}
    </span>
  );
}

/** An event in the list: its name (opens its page), start or live state, and its first three markets. */
function EventCard({ store, event }: { store: FrameStore; event: SportEvent }) {
  const s = store.state;
  const markets = ordered(event);
  return (
    <div class="card ev" data-testid="event" data-event-id={event.id}>
      <h3>
        <button
          type="button"
          class="evlink"
          data-testid="event-open"
          onClick={() => store.go({ eventId: event.id })}
        >
          {eventTitle(event)}
        </button>
        <EventState store={store} event={event} />
      </h3>
      {markets.slice(0, 3).map((m) => (
        <MarketRow store={store} event={event} market={m} key={m.id} />
      ))}
      {markets.length > 3 && (
        <button
          type="button"
          class="more"
          data-testid="event-more"
          onClick={() => store.go({ eventId: event.id })}
        >
          {t(s.locale, 'events.markets', { n: markets.length })} ›
        </button>
      )}
    </div>
  );
}

/** A market: its name and its odds; a suspended or closed one greyed with why. */
function MarketRow({ store, event, market }: { store: FrameStore; event: SportEvent; market: Market }) {
  const s = store.state;
  const why =
    market.status === SUSPENDED
      ? t(s.locale, 'market.suspended')
      : market.status !== OPEN
        ? t(s.locale, 'market.closed')
        : undefined;
  const odds = Object.values(market.odds);
  return (
    <div
      class={`mk${why ? ' off' : ''}`}
      data-market-id={market.id}
      data-testid="market"
      {...(why ? { 'data-suspended': '' } : {})}
    >
      <span class="mn">{marketName(s.locale, event, market)}</span>
      {why && (
        <span class="why" data-testid="market-suspended">
          {why}
        </span>
      )}
      {odds.map((o) => (
        <OddButton store={store} event={event} market={market} odd={o} key={o.id} />
      ))}
    </div>
  );
}

function OddButton({
  store,
  event,
  market,
  odd,
}: {
  store: FrameStore;
  event: SportEvent;
  market: Market;
  odd: Odd;
}) {
  const s = store.state;
  const picked = s.slip.selections.some(
    (x) => x.sportEventId === event.id && x.marketId === market.id && x.oddId === odd.id,
  );
  const open =
    !event.bet_stop &&
    event.fixture.status !== 2 &&
    market.status === OPEN &&
    odd.status === OPEN &&
    odd.is_active;
  const sel: SlipSelection = { sportEventId: event.id, marketId: market.id, oddId: odd.id, odds: odd.value };
  // a price the frame cannot show is never clickable: nobody bets blind
  const price = oddButtonState(odd.value, s.oddsFormat, open);
  const moved = s.moved[`${event.id}/${market.id}/${odd.id}`];
  const name = outcomeName(s.locale, event, market, odd);
  return (
    <button
      type="button"
      class={`odd ${moved ?? ''}`}
      aria-pressed={picked}
      disabled={price.disabled}
      onClick={() => (s.quickBet ? store.set({ quick: sel }) : store.toggle(sel))}
      data-testid="odd"
      data-odd-id={odd.id}
    >
      <span class="on">{name}</span>
      <b data-testid="odd-value">
        {moved && (
          <span class={`arrow ${moved}`}>
            <span aria-hidden="true">{moved === 'up' ? '▲' : '▼'}</span>
            <span class="sr">{t(s.locale, moved === 'up' ? 'odds.up' : 'odds.down')}</span>
          </span>
        )}
        {price.text}
      </b>
    </button>
  );
}

const KIND_KEY: Record<MarketKind, MessageKey> = {
  main: 'kind.main',
  goals: 'kind.goals',
  handicaps: 'kind.handicaps',
  other: 'kind.other',
};

/** One event's page: every market, grouped by kind, each group collapsible. */
export function EventPage({ store, id }: { store: FrameStore; id: string }) {
  const s = store.state;
  const tr = (k: MessageKey, v?: Record<string, unknown>) => t(s.locale, k, v);
  const event = s.events[id];
  const back = (
    <button type="button" class="back" data-testid="back" onClick={() => store.go({ eventId: undefined })}>
      ‹ {tr('nav.back')}
    </button>
  );
  if (!event)
    return (
      <div data-testid="event-page">
        {back}
        <p class="muted">{s.eventsLoaded ? tr('event.notFound') : tr('events.loading')}</p>
      </div>
    );
  const byKind = new Map<MarketKind, Market[]>();
  for (const m of ordered(event)) byKind.set(marketKind(m), [...(byKind.get(marketKind(m)) ?? []), m]);
  const country = countryName(s.locale, event.fixture.tournament.country_code);
  return (
    <div data-testid="event-page" data-event-id={event.id}>
      {back}
      <div class="card head">
        <div class="muted">
          {sportName(s.locale, event.fixture.sport_id)} · {country ? `${country} · ` : ''}
          {event.fixture.tournament.name}
        </div>
        <h2 class="evt" data-testid="event-title">
          {eventTitle(event)}
        </h2>
        <EventState store={store} event={event} />
      </div>
      <BuilderPanel store={store} event={event} />
      {[...byKind].map(([kind, markets]) => (
        <details open class="card grp" key={kind} data-testid="market-group" data-kind={kind}>
          <summary>
            <h3>
              {tr(KIND_KEY[kind])} <span class="n">{markets.length}</span>
            </h3>
          </summary>
          {markets.map((m) => (
            <MarketRow store={store} event={event} market={m} key={m.id} />
          ))}
        </details>
      ))}
    </div>
  );
}
