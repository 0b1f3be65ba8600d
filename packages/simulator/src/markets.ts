/**
 * From a football-data match row to the spec-02 shapes: deterministic sport event, tournament and competitor ids,
 * the fixture, and the three markets (1X2, total goals 2.5, Asian handicap on the AHh line) with their odds written
 * as 12-decimal feed values (docs/adr/0010-replay-importer.md "Ids and market types").
 *
 * @packageDocumentation
 */
import type {
  Competitor,
  FixtureInput,
  Market,
  MarketInput,
  PatchMarketsBody,
  Tournament,
} from '@bookie/contracts';
import { formatFeedOddValue, MARKET_STATUS, ODD_STATUS, parseFeedOddValue } from '@bookie/core';
import {
  type AsianQuote,
  type MarketKind,
  type MatchRow,
  type OneXTwoQuote,
  type PhaseOdds,
  sameLine,
  type TotalQuote,
} from './football-data.js';
import { simulatorId } from './ids.js';

/** Market type ids (UOF-style numbering): 1 = 1X2, 16 = handicap (Asian lines), 18 = total goals. */
export const MARKET_TYPE = { '1x2': 1, asian_handicap: 16, total: 18 } as const satisfies Record<
  MarketKind,
  number
>;

/** The market kind of a type id, or undefined. */
export function marketKindOf(typeId: number): MarketKind | undefined {
  for (const [kind, id] of Object.entries(MARKET_TYPE)) if (id === typeId) return kind as MarketKind;
  return undefined;
}

/** Outcome (odd) ids of each market, in display order. */
export const OUTCOMES = {
  '1x2': ['home', 'draw', 'away'],
  total: ['over', 'under'],
  asian_handicap: ['home', 'away'],
} as const satisfies Record<MarketKind, readonly string[]>;

/** An outcome id of any replayed market. */
export type OutcomeId = (typeof OUTCOMES)[MarketKind][number];

/** The specifier of each market kind that carries its line (none for 1X2). */
export const LINE_SPECIFIER = { '1x2': undefined, total: 'total', asian_handicap: 'hcp' } as const;

/**
 * The market id: the type id, then `:` and the specifiers as `key=value` joined by `|` (spec 02: "Market id may
 * encode specifiers"), e.g. `"1"`, `"18:total=2.5"`, `"16:hcp=-0.25"`. The line is written as in the CSV.
 */
export function marketId(kind: MarketKind, line?: string): string {
  const spec = LINE_SPECIFIER[kind];
  if (spec === undefined) return String(MARKET_TYPE[kind]);
  if (line === undefined) throw new TypeError(`marketId: ${kind} needs a line`);
  return `${MARKET_TYPE[kind]}:${spec}=${line}`;
}

/** Leagues football-data.co.uk publishes: display name and country (ISO 3166-1 alpha-2; `scope` keys team ids). */
export const LEAGUES: Readonly<Record<string, { name: string; countryCode: string; scope: string }>> = {
  E0: { name: 'Premier League', countryCode: 'GB', scope: 'england' },
  E1: { name: 'Championship', countryCode: 'GB', scope: 'england' },
  E2: { name: 'League One', countryCode: 'GB', scope: 'england' },
  E3: { name: 'League Two', countryCode: 'GB', scope: 'england' },
  EC: { name: 'National League', countryCode: 'GB', scope: 'england' },
  SC0: { name: 'Scottish Premiership', countryCode: 'GB', scope: 'scotland' },
  SP1: { name: 'La Liga', countryCode: 'ES', scope: 'spain' },
  SP2: { name: 'Segunda División', countryCode: 'ES', scope: 'spain' },
  D1: { name: 'Bundesliga', countryCode: 'DE', scope: 'germany' },
  D2: { name: '2. Bundesliga', countryCode: 'DE', scope: 'germany' },
  I1: { name: 'Serie A', countryCode: 'IT', scope: 'italy' },
  I2: { name: 'Serie B', countryCode: 'IT', scope: 'italy' },
  F1: { name: 'Ligue 1', countryCode: 'FR', scope: 'france' },
  F2: { name: 'Ligue 2', countryCode: 'FR', scope: 'france' },
  N1: { name: 'Eredivisie', countryCode: 'NL', scope: 'netherlands' },
  B1: { name: 'Jupiler Pro League', countryCode: 'BE', scope: 'belgium' },
  P1: { name: 'Primeira Liga', countryCode: 'PT', scope: 'portugal' },
  T1: { name: 'Süper Lig', countryCode: 'TR', scope: 'turkey' },
  G1: { name: 'Super League Greece', countryCode: 'GR', scope: 'greece' },
};

function leagueOf(code: string): { name: string; countryCode?: string; scope: string } {
  return LEAGUES[code] ?? { name: code, scope: `league:${code}` };
}

/** Sport event id: UUID v5 of `event/<league>/<YYYY-MM-DD>/<home>/<away>` (UK local date). */
export function sportEventIdOf(row: Pick<MatchRow, 'league' | 'date' | 'home' | 'away'>): string {
  return simulatorId(`event/${row.league}/${row.date}/${row.home}/${row.away}`);
}

/** Competitor id: UUID v5 of `team/<country scope>/<name>`, so a promoted team keeps its id across leagues. */
export function competitorIdOf(league: string, team: string): string {
  return simulatorId(`team/${leagueOf(league).scope}/${team}`);
}

/** The tournament: id per league and season, master id per league. */
export function tournamentOf(row: Pick<MatchRow, 'league' | 'season'>): Tournament {
  const l = leagueOf(row.league);
  return {
    id: simulatorId(`tournament/${row.league}/${row.season}`),
    name: `${l.name} ${row.season}`,
    master_id: simulatorId(`tournament/${row.league}`),
    ...(l.countryCode ? { country_code: l.countryCode } : {}),
  };
}

/** Score type ids used in `scores` (spec 02 leaves the list open): 1 match total, 2 period (half). */
export const SCORE_TYPE = { TOTAL: 1, PERIOD: 2 } as const;

/** The competitors of a match, home first, each with a 0 total score. */
export function competitorsOf(row: MatchRow): Record<string, Competitor> {
  const out: Record<string, Competitor> = {};
  for (const [i, name] of [row.home, row.away].entries()) {
    const id = competitorIdOf(row.league, name);
    out[id] = {
      id,
      meta: {},
      name,
      type: 2,
      scores: { total: { id: 'total', type: SCORE_TYPE.TOTAL, number: 0, points: '0' } },
      home_away: i === 0 ? 1 : 2,
      master_id: id,
      template_position: i + 1,
    };
  }
  return out;
}

/** The fixture of a match: football, not started, kick-off in UTC; no live odds coverage. */
export function fixtureOf(row: MatchRow): FixtureInput {
  return {
    id: sportEventIdOf(row),
    meta: {},
    type: 1,
    status: 0,
    sport_id: 'football',
    template: '{$competitor1} vs {$competitor2}',
    start_time: row.kickOff,
    tournament: tournamentOf(row),
    competitors: competitorsOf(row),
    live_coverage: false,
  };
}

/** A CSV odds string as a feed odd value with 12 decimals (`"8.0"` → `"8.000000000000"`). */
export function feedOdd(value: string, field = 'odds'): string {
  return formatFeedOddValue(parseFeedOddValue(value, field));
}

type Quote = OneXTwoQuote | TotalQuote | AsianQuote;

function quoteValues(kind: MarketKind, q: Quote): Record<string, string> {
  switch (kind) {
    case '1x2': {
      const x = q as OneXTwoQuote;
      return { home: x.home, draw: x.draw, away: x.away };
    }
    case 'total': {
      const x = q as TotalQuote;
      return { over: x.over, under: x.under };
    }
    case 'asian_handicap': {
      const x = q as AsianQuote;
      return { home: x.home, away: x.away };
    }
  }
}

const MARKET_TEMPLATE: Record<MarketKind, string> = {
  '1x2': '1x2',
  total: 'Total goals {total}',
  asian_handicap: 'Asian handicap {hcp}',
};

const ODD_TEMPLATE: Record<string, string> = {
  '1x2/home': '{$competitor1}',
  '1x2/draw': 'draw',
  '1x2/away': '{$competitor2}',
  'total/over': 'over {total}',
  'total/under': 'under {total}',
  'asian_handicap/home': '{$competitor1} ({hcp})',
  'asian_handicap/away': '{$competitor2} ({-hcp})',
};

/** The line a quote is on (undefined for 1X2). */
function lineOf(kind: MarketKind, q: Quote): string | undefined {
  return kind === '1x2' ? undefined : (q as TotalQuote | AsianQuote).line;
}

/**
 * One market in the snapshot shape (contracts `Market`), active, every odd not resulted and active.
 *
 * @throws DomainError validation_error when an odds string is not valid feed odds.
 */
export function buildMarket(kind: MarketKind, quote: Quote): Market {
  const line = lineOf(kind, quote);
  const spec = LINE_SPECIFIER[kind];
  const id = marketId(kind, line);
  const values = quoteValues(kind, quote);
  const odds: Market['odds'] = {};
  for (const outcome of OUTCOMES[kind]) {
    odds[outcome] = {
      id: outcome,
      value: feedOdd(values[outcome]!, `markets.${id}.odds.${outcome}`),
      status: ODD_STATUS.NOT_RESULTED,
      template: ODD_TEMPLATE[`${kind}/${outcome}`]!,
      is_active: true,
    };
  }
  return {
    id,
    odds,
    status: MARKET_STATUS.ACTIVE,
    type_id: MARKET_TYPE[kind],
    template: MARKET_TEMPLATE[kind],
    specifiers: spec && line !== undefined ? { [spec]: line } : {},
  };
}

/**
 * The markets offered for a match, with their opening odds (or the closing odds where a market has no opening
 * quote); a market with neither is skipped. Order: 1X2, total, Asian handicap.
 */
export function openingMarkets(row: MatchRow): Market[] {
  const out: Market[] = [];
  for (const kind of ['1x2', 'total', 'asian_handicap'] as const) {
    const q = row.odds.opening[kind] ?? row.odds.closing[kind];
    if (q) out.push(buildMarket(kind, q));
  }
  return out;
}

/**
 * The closing-odds update: new odd values for each offered market that has a closing quote on the same line as the
 * market (an Asian closing quote on another line than AHh does not apply; the market keeps its opening odds).
 * Empty when nothing changes.
 */
export function closingOddsPatch(row: MatchRow): PatchMarketsBody['markets'] {
  const out: PatchMarketsBody['markets'] = [];
  for (const market of openingMarkets(row)) {
    const kind = marketKindOf(market.type_id)!;
    const q = row.odds.closing[kind as keyof PhaseOdds];
    if (!q) continue;
    const line = lineOf(kind, q);
    const current = market.specifiers[LINE_SPECIFIER[kind] ?? ''];
    if (line !== undefined && current !== undefined && !sameLine(line, current)) continue;
    const values = quoteValues(kind, q);
    const odds = OUTCOMES[kind]
      .map((o) => ({ id: o, value: feedOdd(values[o]!, `markets.${market.id}.odds.${o}`) }))
      .filter((o) => o.value !== market.odds[o.id]!.value);
    if (odds.length > 0) out.push({ id: market.id, odds });
  }
  return out;
}

/** A snapshot market as the trading commands take it (odds as a list, statuses and templates explicit). */
export function toMarketInput(m: Market): MarketInput {
  return {
    id: m.id,
    type_id: m.type_id,
    status: m.status,
    template: m.template,
    specifiers: { ...m.specifiers },
    odds: Object.values(m.odds).map((o) => ({
      id: o.id,
      value: o.value,
      status: o.status,
      template: o.template,
      is_active: o.is_active,
    })),
  };
}
