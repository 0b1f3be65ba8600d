/**
 * The sport event snapshot of the trading feed (the feed contract, "Sport event snapshot"): fixture, competitors with scores,
 * markets keyed by id with specifiers, odds with 12-decimal values, statuses, bet stop, extensions, sources, meta.
 *
 * Every object the spec lists is closed (`additionalProperties: false`); the free-form parts (`meta`, `streams`,
 * `extensions`) are open. The schemas are plain JSON Schema (TypeBox), used by the server to validate what the
 * trading writer produces and by the SDK for its types.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { UUID_PATTERN } from './callbacks.js';
import {
  codeBounds,
  describeCodes,
  FIXTURE_STATUS_CODES,
  MARKET_STATUS_CODES,
  ODD_STATUS,
  ODD_STATUS_CODES,
} from './status-codes.js';
import { ID_KEYS, idText, nameText } from './text.js';

/** ISO 8601 date-time with an explicit offset or `Z`, fractional seconds optional (the feed contract's `updated_at`). */
export const ISO_DATE_TIME_PATTERN =
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$';

/** A feed odd value: a decimal string with exactly 12 decimals, e.g. `"1.850000000000"` (the feed contract, "Odd", the decimal strings rule). */
export const FEED_ODD_VALUE_PATTERN = '^(0|[1-9]\\d{0,17})\\.\\d{12}$';

/** Free-form object (meta, streams, extensions). */
export const FreeObject = Type.Record(Type.String(), Type.Unknown(), {
  description: 'free-form object',
});

/** Score of a competitor (the feed contract, "Competitor" scores): `total` is the match score; per-map ids such as `map:1`. */
export const Score = Type.Object(
  {
    id: Type.String(idText({ minLength: 1, description: 'score id, e.g. "total" or "map:1"' })),
    type: Type.Integer({ description: 'score type (complete list: not shown by the spec)' }),
    number: Type.Integer({ description: 'ordinal of the period the score belongs to' }),
    points: Type.String(idText({ description: 'points as a string, e.g. "2"' })),
  },
  { additionalProperties: false },
);
/** A competitor's score. */
export type Score = Static<typeof Score>;

/** A competitor of a fixture (the feed contract, "Competitor"; `type` per the competitor type rule: 1 person, 2 team). */
export const Competitor = Type.Object(
  {
    id: Type.String(idText({ minLength: 1 })),
    meta: FreeObject,
    name: Type.String(nameText()),
    type: Type.Integer({ description: '1 person, 2 team' }),
    scores: Type.Record(Type.String(), Score, { description: 'scores keyed by score id', ...ID_KEYS }),
    home_away: Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 home, 2 away' }),
    master_id: Type.String(idText()),
    country_code: Type.Optional(Type.String(idText())),
    template_position: Type.Integer(),
  },
  { additionalProperties: false },
);
/** A competitor of a fixture. */
export type Competitor = Static<typeof Competitor>;

/** The tournament of a fixture. */
export const Tournament = Type.Object(
  {
    id: Type.String(idText({ minLength: 1 })),
    name: Type.String(nameText()),
    master_id: Type.String(idText()),
    country_code: Type.Optional(Type.String(idText())),
  },
  { additionalProperties: false },
);
/** The tournament of a fixture. */
export type Tournament = Static<typeof Tournament>;

/** Fixture status code 0–8 ({@link FIXTURE_STATUS_CODES}, the feed contract "Fixture status"). Bets only on 0 and 1. */
export const FixtureStatusCode = Type.Integer({
  ...codeBounds(FIXTURE_STATUS_CODES),
  description: describeCodes(FIXTURE_STATUS_CODES),
});

/** Market status code 0–4 ({@link MARKET_STATUS_CODES}, the feed contract "Market status"). Bets only on 0. */
export const MarketStatusCode = Type.Integer({
  ...codeBounds(MARKET_STATUS_CODES),
  description: describeCodes(MARKET_STATUS_CODES),
});

/**
 * Odd status code 0–6 of the feed ({@link ODD_STATUS_CODES} without 7 refunded manually, which only an operator's
 * refund sets; the feed contract "Odd status"). Bets only on 0.
 */
export const OddStatusCode = Type.Integer({
  ...codeBounds(ODD_STATUS_CODES, { max: ODD_STATUS.CANCELLED }),
  description: describeCodes(ODD_STATUS_CODES, { max: ODD_STATUS.CANCELLED }),
});

/** The fixture of a sport event (the feed contract, "Fixture"). `start_time` and `updated_at` are ISO 8601. */
export const Fixture = Type.Object(
  {
    id: Type.String(idText({ minLength: 1 })),
    meta: FreeObject,
    type: Type.Integer(),
    status: FixtureStatusCode,
    streams: FreeObject,
    version: Type.Optional(Type.Integer()),
    sport_id: Type.String(idText()),
    template: Type.String(nameText({ description: 'e.g. "{$competitor1} vs {$competitor2}"' })),
    start_time: Type.String({ pattern: ISO_DATE_TIME_PATTERN }),
    tournament: Tournament,
    updated_at: Type.String({ pattern: ISO_DATE_TIME_PATTERN }),
    competitors: Type.Record(Type.String(), Competitor, {
      description: 'competitors keyed by competitor id',
      ...ID_KEYS,
    }),
    live_coverage: Type.Boolean(),
  },
  { additionalProperties: false },
);
/** The fixture of a sport event. */
export type Fixture = Static<typeof Fixture>;

/** An odd (outcome) of a market (the feed contract, "Odd"); `value` is a 12-decimal string (the decimal strings rule). */
export const Odd = Type.Object(
  {
    id: Type.String(idText({ minLength: 1 })),
    value: Type.String({ pattern: FEED_ODD_VALUE_PATTERN, description: 'decimal odds, 12 decimals' }),
    status: OddStatusCode,
    template: Type.String(nameText()),
    is_active: Type.Boolean(),
    probability: Type.Optional(
      Type.String({
        pattern: '^(0\\.[0-9]{12}|1\\.0{12})$',
        description:
          "win probability with the margin removed proportionally over the market's active odds, 12 decimals; " +
          'changes in the same entry as the odds; 0 for an inactive odd. Partners use it for their own cash-out',
      }),
    ),
  },
  { additionalProperties: false },
);
/** An odd (outcome) of a market. */
export type Odd = Static<typeof Odd>;

/** A market (the feed contract, "Market"), keyed by market id in the snapshot. */
export const Market = Type.Object(
  {
    id: Type.String(idText({ minLength: 1 })),
    odds: Type.Record(Type.String(), Odd, { description: 'odds keyed by outcome id', ...ID_KEYS }),
    status: MarketStatusCode,
    type_id: Type.Integer(),
    template: Type.String(nameText()),
    specifiers: Type.Record(Type.String(), Type.String(nameText()), {
      description: 'e.g. {"total": "2.5"}',
      ...ID_KEYS,
    }),
    is_defective: Type.Optional(
      Type.Boolean({
        description:
          'trading marked the odds of this market as known to be wrong: bets are declined market_defective',
      }),
    ),
  },
  { additionalProperties: false },
);
/** A market. */
export type Market = Static<typeof Market>;

/** A data source of a sport event. */
export const Source = Type.Object(
  { id: Type.String(idText()), type: Type.String(idText()) },
  { additionalProperties: false },
);
/** A data source of a sport event. */
export type Source = Static<typeof Source>;

/**
 * The sport event snapshot (the feed contract, "Sport event snapshot"): what `/all` streams one per line and what a
 * `match_new` entry carries. Its version is the `v` of its latest log entry (the feed contract, "What the service does").
 */
export const SportEvent = Type.Object(
  {
    id: Type.String({ pattern: UUID_PATTERN, description: 'sport event id (UUID)' }),
    meta: FreeObject,
    fixture: Fixture,
    markets: Type.Record(Type.String(), Market, { description: 'markets keyed by market id', ...ID_KEYS }),
    bet_stop: Type.Boolean({ description: 'true: bets on this event are suspended' }),
    extensions: Type.Optional(FreeObject),
    sources: Type.Optional(Type.Array(Source)),
    updated_at: Type.String({ pattern: ISO_DATE_TIME_PATTERN }),
  },
  { additionalProperties: false },
);
/** The sport event snapshot (the feed contract). */
export type SportEvent = Static<typeof SportEvent>;

/** One sport event of the operator's live book (`GET /trading/sport-events`). */
export const SportEventSummary = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'the fixture template filled with the competitors' }),
  sport_id: Type.String(),
  tournament: Type.String(),
  start_time: Type.String(),
  status: Type.Integer({ description: 'fixture status' }),
  bet_stop: Type.Boolean(),
  markets: Type.Integer(),
  active_markets: Type.Integer({ description: 'markets with status 0 (active)' }),
  version: Type.String({ description: 'the version of its latest log entry' }),
});
/** One sport event of the live book. */
export type SportEventSummary = Static<typeof SportEventSummary>;

/**
 * Query of `GET /trading/sport-events` (the live book): `limit` 1..1000 as a string (default 100), `status` a fixture
 * status digit to filter by.
 */
export const SportEventListQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
    status: Type.Optional(Type.String({ pattern: '^[0-9]$' })),
  },
  { additionalProperties: false },
);
/** See {@link SportEventListQuery}. */
export type SportEventListQuery = Static<typeof SportEventListQuery>;

/** Answer of `GET /trading/sport-events`: {@link SportEventSummary} rows, most recently changed first. */
export const SportEventSummaryList = Type.Object(
  { items: Type.Array(SportEventSummary) },
  {
    examples: [
      {
        items: [
          {
            id: '6a7c1d4e-1f2b-4c3d-8e9f-0a1b2c3d4e5f',
            name: 'Arsenal vs Chelsea',
            sport_id: 'football',
            tournament: 'Premier League',
            start_time: '2026-05-01T14:00:00Z',
            status: 0,
            bet_stop: false,
            markets: 3,
            active_markets: 3,
            version: '42',
          },
        ],
      },
    ],
  },
);
/** See {@link SportEventSummaryList}. */
export type SportEventSummaryList = Static<typeof SportEventSummaryList>;

/**
 * Answer of `GET /trading/sport-events/{id}`: the sport event's snapshot as the feed replicates it, with the feed
 * version (a decimal integer string) it is at. Example in examples.ts.
 */
export const SportEventAtVersion = Type.Object(
  { version: Type.String(), sport_event: SportEvent },
  { title: 'SportEventAtVersion' },
);
/** See {@link SportEventAtVersion}. */
export type SportEventAtVersion = Static<typeof SportEventAtVersion>;

/**
 * Answer of the frame's `GET /frame-api/sport-events`: the sport events a player sees, with markets and odds. Example
 * in examples.ts.
 */
export const SportEventList = Type.Object({ items: Type.Array(SportEvent) }, { title: 'SportEventList' });
/** See {@link SportEventList}. */
export type SportEventList = Static<typeof SportEventList>;
