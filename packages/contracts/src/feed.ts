/**
 * The trading feed's log entries, heartbeat and headers (the feed contract, "Log entry", "Heartbeat message",
 * The feed rules), and the bodies of the trading API that writes the log (`/trading/...`).
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { UUID_PATTERN } from './callbacks.js';
import { DECIMAL_PATTERN } from './decimal.js';
import {
  Competitor,
  FixtureStatusCode,
  FreeObject,
  ISO_DATE_TIME_PATTERN,
  MarketStatusCode,
  OddStatusCode,
  Score,
  Source,
  SportEvent,
  Tournament,
} from './sport-event.js';
import { ID_KEYS, idText, nameText, PLAIN_TEXT_PATTERN } from './text.js';

/** A feed version on the wire: a decimal integer string, strictly ascending, not contiguous (the feed versions rule). */
export const FEED_VERSION_PATTERN = '^(0|[1-9][0-9]{0,18})$';

/** Value of the `X-Api-Version` header of every feed response (the feed contract, "Versioning"). */
export const FEED_API_VERSION = '2';

/** Cache-Control of `GET /log` (the feed contract, "Endpoints"). */
export const FEED_LOG_CACHE_CONTROL = 'no-cache, no-store, must-revalidate';

/** Feed version as a decimal string (the feed versions rule). Compare as BigInt, never as number or string. */
export const FeedVersion = Type.String({
  pattern: FEED_VERSION_PATTERN,
  description: 'decimal integer string',
});

const entryBase = {
  v: FeedVersion,
  sport_event_id: Type.String({ description: 'sport event id' }),
  timestamp: Type.Integer({ description: 'unix seconds' }),
};

/** `match_new`: an event was added, or re-sent by `/refetch` (the feed contract, "Log entry"). Markets may be empty. */
export const MatchNewEntry = Type.Object(
  { ...entryBase, type: Type.Literal('match_new'), sport_event: SportEvent },
  { additionalProperties: false },
);
/** A `match_new` log entry. */
export type MatchNewEntry = Static<typeof MatchNewEntry>;

/**
 * Changes of a `match_update`: each key is a `/`-separated path through the event object (segments non-empty;
 * `__proto__`, `constructor`, `prototype` rejected), each value the node's new value; shallower paths are applied
 * before deeper ones (the feed contract, the change paths rule).
 */
export const Changes = Type.Record(Type.String(), Type.Unknown(), {
  description: 'path → new value (the change paths rule)',
});
/** Changes of a `match_update`. */
export type Changes = Static<typeof Changes>;

/** `match_update`: a partial update of one event (the feed contract, "Log entry"). */
export const MatchUpdateEntry = Type.Object(
  { ...entryBase, type: Type.Literal('match_update'), changes: Changes },
  { additionalProperties: false },
);
/** A `match_update` log entry. */
export type MatchUpdateEntry = Static<typeof MatchUpdateEntry>;

/** Reasons of a bet rollback (the feed contract, "bet_rollback reasons"); `322` is suspected unfair play or match-fixing. */
export const BET_ROLLBACK_REASONS = [
  '322',
  'crash_of_the_game',
  'after_goal',
  'technical_error_in_coefficient',
  'pre_match_bets_after_match_start',
  'duplicate_bet',
  'streamsniping',
] as const;

/** A bet rollback reason (the feed contract), a string on the wire (`"322"` included; see docs/adr/0004). */
export const BetRollbackReason = Type.Union(
  BET_ROLLBACK_REASONS.map((r) => Type.Literal(r)),
  { description: 'why the bets are rolled back' },
);
/** A bet rollback reason. */
export type BetRollbackReason = (typeof BET_ROLLBACK_REASONS)[number];

/**
 * `bet_rollback`: bets on `market_ids` (all markets of the event when empty) placed between `dt_start` and
 * `dt_end` (ISO 8601) must be rolled back (the feed contract, "Log entry").
 */
export const BetRollbackEntry = Type.Object(
  {
    ...entryBase,
    type: Type.Literal('bet_rollback'),
    match_id: Type.String(),
    market_ids: Type.Array(Type.String()),
    reason: BetRollbackReason,
    dt_start: Type.String({ pattern: ISO_DATE_TIME_PATTERN }),
    dt_end: Type.String({ pattern: ISO_DATE_TIME_PATTERN }),
  },
  { additionalProperties: false },
);
/** A `bet_rollback` log entry. */
export type BetRollbackEntry = Static<typeof BetRollbackEntry>;

/** Any log entry (one line of `GET /log` other than a heartbeat). */
export const LogEntry = Type.Union([MatchNewEntry, MatchUpdateEntry, BetRollbackEntry]);
/** Any log entry. */
export type LogEntry = MatchNewEntry | MatchUpdateEntry | BetRollbackEntry;
/** The `type` of a log entry. */
export type LogEntryType = LogEntry['type'];

/** Heartbeat line `{"type":"heartbeat","timestamp":…}`, no `v` (the feed contract, "Heartbeat message", the feed heartbeat line rule). */
export const Heartbeat = Type.Object(
  { type: Type.Literal('heartbeat'), timestamp: Type.Integer({ description: 'unix seconds' }) },
  { additionalProperties: false },
);
/** A heartbeat line. */
export type Heartbeat = Static<typeof Heartbeat>;

/** Any line of `GET /log`. */
export type FeedLine = LogEntry | Heartbeat;

/** Query of `GET /log`: `heartbeat_interval` in whole seconds (1–3600), as a string (the feed contract). */
export const LogQuery = Type.Object(
  {
    heartbeat_interval: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,4}$', description: 'whole seconds, 1–3600' }),
    ),
  },
  { additionalProperties: false },
);

/** Answer of `POST /refetch/sport-event/{id}` (202, the refetch rule): the version of the new `match_new`. */
export const RefetchResponse = Type.Object({ version: FeedVersion }, { additionalProperties: false });
/** Answer of `POST /refetch/sport-event/{id}`. */
export type RefetchResponse = Static<typeof RefetchResponse>;

/** Path parameter `{id}` / `{sportEventId}` of feed and trading routes. */
export const SportEventIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

// ---------------------------------------------------------------------------------------------------------------
// Trading API bodies (operators and importers; `/trading/...`, admin token). Each command appends log entries.
// Odd values in commands may have up to 12 decimals; the writer writes them with exactly 12 (the decimal strings rule).
// ---------------------------------------------------------------------------------------------------------------

/** An odd value as a trading command takes it: a decimal string above 1 with up to 12 decimals. */
export const OddValueInput = Type.String({
  pattern: DECIMAL_PATTERN,
  description: 'decimal odds above 1, up to 12 decimals; stored with exactly 12',
});

/** An odd in a command body (value with up to 12 decimals). */
export const OddInput = Type.Object(
  {
    id: Type.String(idText({ minLength: 1 })),
    value: OddValueInput,
    status: Type.Optional(OddStatusCode),
    template: Type.Optional(Type.String(nameText())),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
/** An odd in a command body: `status` defaults to 0, `template` to "", `is_active` to true. */
export type OddInput = Static<typeof OddInput>;

/** A whole market in a command body. Odds are a list; defaults: status 0, template "", specifiers {}. */
export const MarketInput = Type.Object(
  {
    id: Type.String(idText({ minLength: 1 })),
    type_id: Type.Integer(),
    status: Type.Optional(MarketStatusCode),
    template: Type.Optional(Type.String(nameText())),
    specifiers: Type.Optional(Type.Record(Type.String(), Type.String(nameText()), ID_KEYS)),
    odds: Type.Array(OddInput),
  },
  { additionalProperties: false },
);
/** A whole market in a command body. */
export type MarketInput = Static<typeof MarketInput>;

/** A fixture in the create command; `updated_at` is set by the writer; `meta`/`streams` default to {}. */
export const FixtureInput = Type.Object(
  {
    id: Type.Optional(Type.String(idText({ minLength: 1 }))),
    meta: Type.Optional(FreeObject),
    type: Type.Integer(),
    status: Type.Optional(FixtureStatusCode),
    streams: Type.Optional(FreeObject),
    version: Type.Optional(Type.Integer()),
    sport_id: Type.String(idText()),
    template: Type.String(nameText()),
    start_time: Type.String({ pattern: ISO_DATE_TIME_PATTERN }),
    tournament: Tournament,
    competitors: Type.Record(Type.String(), Competitor, ID_KEYS),
    live_coverage: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
/** A fixture in the create command. */
export type FixtureInput = Static<typeof FixtureInput>;

/** `POST /trading/sport-events`: create an event (appends `match_new`). `id` defaults to a random UUID. */
export const CreateSportEventBody = Type.Object(
  {
    id: Type.Optional(Type.String({ pattern: UUID_PATTERN })),
    meta: Type.Optional(FreeObject),
    fixture: FixtureInput,
    markets: Type.Optional(Type.Array(MarketInput)),
    bet_stop: Type.Optional(Type.Boolean()),
    extensions: Type.Optional(FreeObject),
    sources: Type.Optional(Type.Array(Source)),
  },
  { additionalProperties: false },
);
/** Body of `POST /trading/sport-events`. */
export type CreateSportEventBody = Static<typeof CreateSportEventBody>;

/**
 * `PATCH /trading/sport-events/{id}/fixture`: change the fixture status and fields (appends one `match_update`
 * with `fixture/<field>` paths; `meta` and `streams` are merged key by key, `competitors` replaced one by one).
 */
export const UpdateFixtureBody = Type.Object(
  {
    status: Type.Optional(FixtureStatusCode),
    type: Type.Optional(Type.Integer()),
    start_time: Type.Optional(Type.String({ pattern: ISO_DATE_TIME_PATTERN })),
    template: Type.Optional(Type.String(nameText())),
    sport_id: Type.Optional(Type.String(idText())),
    version: Type.Optional(Type.Integer()),
    live_coverage: Type.Optional(Type.Boolean()),
    tournament: Type.Optional(Tournament),
    meta: Type.Optional(FreeObject),
    streams: Type.Optional(FreeObject),
    competitors: Type.Optional(Type.Record(Type.String(), Competitor, ID_KEYS)),
  },
  { additionalProperties: false, minProperties: 1 },
);
/** Body of `PATCH /trading/sport-events/{id}/fixture`. */
export type UpdateFixtureBody = Static<typeof UpdateFixtureBody>;

/** `PUT /trading/sport-events/{id}/markets`: add or replace whole markets (`markets/<id>` paths). */
export const PutMarketsBody = Type.Object(
  { markets: Type.Array(MarketInput, { minItems: 1 }) },
  { additionalProperties: false },
);
/** Body of `PUT /trading/sport-events/{id}/markets`. */
export type PutMarketsBody = Static<typeof PutMarketsBody>;

/** One odd's changes in {@link PatchMarketsBody}. */
export const OddPatch = Type.Object(
  {
    id: Type.String(idText({ minLength: 1 })),
    value: Type.Optional(OddValueInput),
    status: Type.Optional(OddStatusCode),
    is_active: Type.Optional(Type.Boolean()),
    template: Type.Optional(Type.String(nameText())),
  },
  { additionalProperties: false },
);

/**
 * `PATCH /trading/sport-events/{id}/markets`: set market statuses, odd values, odd statuses (results 1–6
 * included) and `is_active` of existing markets and odds, and mark a market defective (`markets/<id>/status`,
 * `markets/<id>/is_defective`, `markets/<id>/odds/<odd>/value|status|is_active` paths).
 */
export const PatchMarketsBody = Type.Object(
  {
    markets: Type.Array(
      Type.Object(
        {
          id: Type.String(idText({ minLength: 1 })),
          status: Type.Optional(MarketStatusCode),
          is_defective: Type.Optional(
            Type.Boolean({
              description: 'mark the market defective (its odds are wrong): bets declined market_defective',
            }),
          ),
          odds: Type.Optional(Type.Array(OddPatch)),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
);
/** Body of `PATCH /trading/sport-events/{id}/markets`. */
export type PatchMarketsBody = Static<typeof PatchMarketsBody>;

/** `PUT /trading/sport-events/{id}/bet-stop`: bet stop on or off (`bet_stop` path). */
export const BetStopBody = Type.Object({ bet_stop: Type.Boolean() }, { additionalProperties: false });
/** Body of `PUT /trading/sport-events/{id}/bet-stop`. */
export type BetStopBody = Static<typeof BetStopBody>;

/** `PATCH /trading/sport-events/{id}/scores`: set scores, keyed by competitor id then score id. */
export const UpdateScoresBody = Type.Object(
  {
    competitors: Type.Record(Type.String(), Type.Record(Type.String(), Score, ID_KEYS), {
      description: 'competitor id → score id → score',
      ...ID_KEYS,
    }),
  },
  { additionalProperties: false },
);
/** Body of `PATCH /trading/sport-events/{id}/scores`. */
export type UpdateScoresBody = Static<typeof UpdateScoresBody>;

/** `POST /trading/sport-events/{id}/changes`: a raw `match_update` (importers), validated per the change paths rule. */
export const ChangesBody = Type.Object(
  {
    changes: Type.Record(Type.String(), Type.Unknown(), {
      minProperties: 1,
      propertyNames: { maxLength: 1024, pattern: PLAIN_TEXT_PATTERN },
    }),
  },
  { additionalProperties: false },
);
/** Body of `POST /trading/sport-events/{id}/changes`. */
export type ChangesBody = Static<typeof ChangesBody>;

/** `POST /trading/sport-events/{id}/bet-rollbacks`: record a bet rollback (appends `bet_rollback`). */
export const BetRollbackBody = Type.Object(
  {
    market_ids: Type.Array(Type.String(idText({ minLength: 1 }))),
    reason: BetRollbackReason,
    dt_start: Type.String({ pattern: ISO_DATE_TIME_PATTERN }),
    dt_end: Type.String({ pattern: ISO_DATE_TIME_PATTERN }),
  },
  { additionalProperties: false },
);
/** Body of `POST /trading/sport-events/{id}/bet-rollbacks`. */
export type BetRollbackBody = Static<typeof BetRollbackBody>;

/** Answer of every trading command: the sport event id and the version of the last entry it appended. */
export const TradingCommandResponse = Type.Object(
  { id: Type.String(), version: FeedVersion },
  { additionalProperties: false },
);
/** Answer of a trading command. */
export type TradingCommandResponse = Static<typeof TradingCommandResponse>;
