import { type Static, Type } from '@sinclair/typebox';
import { PlaceBuilderSelection } from './bet-builder.js';
import { CashOutOrder } from './cash-out.js';
import { DECIMAL_PATTERN as DECIMAL, MONEY_PATTERN } from './decimal.js';
import { BET_STATUS_CODES, describeCodes, ODD_STATUS_CODES, SETTLE_TYPE_CODES } from './status-codes.js';

/** A selection the player picked: sport event, market and odd ids, and the odds the player saw (decimal string). */
export const PlaceBetSelection = Type.Object(
  {
    sport_event_id: Type.String({ minLength: 1, maxLength: 200 }),
    market_id: Type.String({ minLength: 1, maxLength: 200 }),
    odd_id: Type.String({ minLength: 1, maxLength: 200 }),
    odds: Type.String({ pattern: DECIMAL, description: 'decimal odds the player saw, e.g. "1.85"' }),
  },
  { additionalProperties: false },
);
/** See {@link PlaceBetSelection}. */
export type PlaceBetSelection = Static<typeof PlaceBetSelection>;

/**
 * Body of `POST /frame-api/bets`: a player's bet. `stake` is a decimal string in `currency` (the session's
 * currency); `odds_strategy` 1, 2 or 3 (the callback contract, "Odds acceptance strategy"); `system_sizes` for a system only;
 * `client_key` makes the request idempotent (a repeat returns the same bet); `client_created_at` is when the client
 * created the bet, for the bet delay (the MTS and advisory contract, "Bet delay").
 */
export const PlaceBetRequest = Type.Object(
  {
    bet_type: Type.Union([Type.Literal('single'), Type.Literal('express'), Type.Literal('system')]),
    selections: Type.Array(PlaceBetSelection, {
      description:
        'no maximum of selections in an express; a one-selection express or system is declined bet_type, a system is bounded by its number of combinations; empty only when bet_builders has one',
    }),
    bet_builders: Type.Optional(
      Type.Array(PlaceBuilderSelection, {
        description:
          'bet builders, each one selection at its combined odds (docs/adr/0043-bet-builder-bets.md)',
      }),
    ),
    system_sizes: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1 })),
    stake: Type.String({ pattern: MONEY_PATTERN, description: 'stake, decimal string (at most 6 decimals)' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    odds_strategy: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal(3)]),
    freebet_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    insurance_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    boost_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    client_key: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    client_created_at: Type.Optional(Type.String({ format: 'date-time' })),
    recommended_max_payout: Type.Optional(
      Type.String({
        pattern: DECIMAL,
        description:
          "VIP: the payout the partner recommends for the player, in the bet currency; only a player's first request counts",
      }),
    ),
  },
  { additionalProperties: false, $id: 'PlaceBetRequest' },
);
/** See {@link PlaceBetRequest}. */
export type PlaceBetRequest = Static<typeof PlaceBetRequest>;

/** A restriction `{type, context}` as the frame API shows it (the callback contract, "Restriction"). */
export const RestrictionView = Type.Object({
  type: Type.String(),
  context: Type.Record(Type.String(), Type.Unknown()),
});

/**
 * What a selection was called when it was placed (see {@link SelectionNames}).
 */
export const SelectionNames = Type.Object(
  {
    event: Type.String({ description: 'the sport event name, e.g. "Arsenal vs Chelsea"' }),
    tournament: Type.String(),
    sport_id: Type.String(),
    start_time: Type.String({ description: 'ISO 8601' }),
    market: Type.String({
      description: 'the market name with its specifiers filled in, e.g. "Total goals 2.5"',
    }),
    outcome: Type.String({
      description: 'the outcome name with competitors and specifiers filled in, e.g. "over 2.5"',
    }),
    market_template: Type.String({ description: 'the feed\'s market template, e.g. "Total goals {total}"' }),
    outcome_template: Type.String({ description: 'the feed\'s outcome template, e.g. "over {total}"' }),
    specifiers: Type.Record(Type.String(), Type.String()),
    competitors: Type.Record(Type.String(), Type.String(), {
      description: 'competitor names by template position ("1" → {$competitor1})',
    }),
  },
  { additionalProperties: false },
);
/**
 * What a selection was called when it was placed, in the feed's words (English templates filled in), and the
 * templates and values it was filled from so that a client can name it in another language. Kept with the bet, so
 * it survives the sport event leaving the book.
 */
export type SelectionNames = Static<typeof SelectionNames>;

/**
 * A selection of a bet as the player sees it; odds are decimal strings with 6 decimals. `status` is the odd status
 * of its outcome ({@link ODD_STATUS_CODES}: 0 not resulted, 1 win, 2 loss, 3 half win, 4 half loss, 5 refunded,
 * 6 cancelled, 7 refunded manually). `names` is what the selection was called at placement (null for selections
 * placed before names were kept, and for selections from elsewhere).
 */
export const BetSelectionView = Type.Object({
  sport_event_id: Type.String(),
  market_id: Type.String(),
  odd_id: Type.String(),
  requested_odds: Type.String(),
  odds: Type.String({ description: 'odds the bet was accepted at' }),
  status: Type.Integer({ description: `odd status: ${describeCodes(ODD_STATUS_CODES)}` }),
  names: Type.Optional(Type.Union([SelectionNames, Type.Null()])),
});

/**
 * A bet as the frame API shows it. `status` is the bet status number ({@link BET_STATUS_CODES}, "bet status numbers"
 * in docs/decisions.md: 1 accepted, 2 declined, 3 settled, 4 unsettled, 5 refunded, 6 refunded manually, 7 cashed
 * out, 10 place error, 11 force-declined; 0 while placing), `state` the internal name; `settle_type` is
 * {@link SETTLE_TYPE_CODES}. Money and odds are decimal strings with 6 decimals. After cash-outs (the cash-out rules of the MTS
 * contract) `cashed_out_stake` is the part of the stake cashed out and `cashed_out_refund` what the player received
 * for it; the stake still in play is `stake − cashed_out_stake`, and a settlement pays on that part alone.
 * `cash_out_orders` lists the orders themselves where the bet is read on its own.
 */
export const BetView = Type.Object(
  {
    id: Type.String(),
    status: Type.Integer({
      description: `bet status: ${describeCodes(BET_STATUS_CODES)}; 0 while the bet is being placed`,
    }),
    state: Type.String(),
    bet_type: Type.String(),
    system_sizes: Type.Array(Type.Integer(), {
      description: '[1] for a single, [n] for an express of n selections, the chosen sizes of a system',
    }),
    stake: Type.String(),
    currency: Type.String(),
    total_odds: Type.String(),
    selections: Type.Array(BetSelectionView),
    bet_builders: Type.Optional(
      Type.Array(
        Type.Object({
          sport_event_id: Type.String(),
          requested_odds: Type.String({ description: 'the combined odds the player saw, 6 decimals' }),
          odds: Type.String({ description: 'the combined odds accepted, 6 decimals' }),
          status: Type.Integer({
            description: `the builder's result as a selection's: ${describeCodes(ODD_STATUS_CODES)}`,
          }),
          legs: Type.Array(BetSelectionView, {
            description:
              "the inner legs; each leg's odds are the feed's at placement (the builder is priced whole)",
          }),
        }),
        { description: 'the bet builders, each one selection at its combined odds; absent when none' },
      ),
    ),
    restrictions: Type.Array(RestrictionView),
    freebet_id: Type.Union([Type.String(), Type.Null()]),
    insurance_id: Type.Union([Type.String(), Type.Null()]),
    boost_id: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    decided_at: Type.Union([Type.String(), Type.Null()]),
    payout: Type.Union([Type.String(), Type.Null()]),
    settle_amount: Type.Union([Type.String(), Type.Null()]),
    settle_type: Type.Union([Type.Integer(), Type.Null()], {
      description: `${describeCodes(SETTLE_TYPE_CODES)}; null until settled`,
    }),
    cashed_out_stake: Type.String({
      description: 'Σ amount of the accepted cash-out orders: the part of the stake cashed out (0 when none)',
    }),
    cashed_out_refund: Type.String({
      description: 'Σ refund_amount of the same orders: what the player received for them (0 when none)',
    }),
    cash_out_orders: Type.Optional(
      Type.Array(CashOutOrder, {
        description:
          "the bet's cash-out orders, oldest first, accepted and declined (a reversed order is declined with " +
          '`partner_unsupported`); present where the bet itself is read (one bet, the history, a cash-out change ' +
          'on the live stream)',
      }),
    ),
  },
  { $id: 'BetView' },
);
/** See {@link BetView}. */
export type BetView = Static<typeof BetView>;

/** A page of a player's bets (history), newest first; `next` is the cursor of the next page, or null. */
export const BetPage = Type.Object({
  items: Type.Array(BetView),
  next: Type.Union([Type.String(), Type.Null()]),
});
/** See {@link BetPage}. */
export type BetPage = Static<typeof BetPage>;

/** A partner banner shown in the frame (the frame rule); URLs are http(s). */
export const FrameBanner = Type.Object({
  id: Type.String(),
  image_url: Type.String(),
  link_url: Type.String(),
  title: Type.String(),
});

/** Answer of `GET /frame-api/banners`: the partner's banners for a placement, possibly none (the frame rule). */
export const FrameBanners = Type.Object(
  { banners: Type.Array(FrameBanner) },
  {
    examples: [
      {
        banners: [
          {
            id: 'welcome',
            image_url: 'https://casino.example/banners/welcome.svg',
            link_url: 'https://casino.example/promo',
            title: 'Welcome bonus',
          },
        ],
      },
    ],
  },
);
/** See {@link FrameBanners}. */
export type FrameBanners = Static<typeof FrameBanners>;

/** A bonus the player can use on the next bet, as the bet slip shows it. Money is a 6-decimal string. */
export const FramePlayerBonus = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('freebet'), Type.Literal('insurance'), Type.Literal('boost')]),
  /** Freebet amount, insurance amount or percent, or boost multiplier. */
  value: Type.String(),
  currency: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
});
/** See {@link FramePlayerBonus}. */
export type FramePlayerBonus = Static<typeof FramePlayerBonus>;

/** Answer of `GET /frame-api/bonuses`: the player's available freebets and insurances and active boosts. */
export const FramePlayerBonuses = Type.Object(
  { items: Type.Array(FramePlayerBonus) },
  {
    examples: [
      {
        items: [
          {
            id: '0f1e…',
            kind: 'freebet',
            value: '5.000000',
            currency: 'EUR',
            expires_at: null,
            name: 'Freebet 5.000000 EUR',
          },
        ],
      },
    ],
  },
);
/** See {@link FramePlayerBonuses}. */
export type FramePlayerBonuses = Static<typeof FramePlayerBonuses>;

/**
 * Answer of `POST /frame-api/origin` (the frame rule on allowed origins): whether the calling page's origin (its
 * `Origin` header; `null` when the browser sent none, which counts as allowed, as on every frame route) is one of
 * the session's white label's `allowed_origins`. The request body is the session token as `text/plain`, so a
 * browser sends it without a CORS preflight and can read the answer from any origin (`Access-Control-Allow-Origin:
 * *`): the frame tells "this site is not allowed" apart from a lost connection.
 */
export const FrameOriginCheck = Type.Object(
  {
    origin: Type.Union([Type.String(), Type.Null()], { description: "the request's Origin header" }),
    allowed: Type.Boolean({ description: "true when the session's white label allows that origin" }),
  },
  { examples: [{ origin: 'https://casino.example', allowed: true }] },
);
/** See {@link FrameOriginCheck}. */
export type FrameOriginCheck = Static<typeof FrameOriginCheck>;

/** Body of `POST /frame-api/origin-check`: the player's session token as `text/plain`. */
export const FrameSessionTokenText = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'the session token',
  examples: ['bkst_4f0c2a9e7d1b44c8a2e6f3b5d9c1e7a0'],
});

/** Query of `GET /frame-api/sport-events`: `state` (prematch, or live with suspended) and `limit` 1..1000 (default 200). */
export const FrameSportEventQuery = Type.Object(
  {
    state: Type.Optional(Type.Union([Type.Literal('prematch'), Type.Literal('live')])),
    limit: Type.Optional(Type.String({ description: '1..1000, default 200' })),
  },
  { additionalProperties: false },
);
/** See {@link FrameSportEventQuery}. */
export type FrameSportEventQuery = Static<typeof FrameSportEventQuery>;

/** Path of the frame's routes on one sport event or one of the player's bets (`/frame-api/…/{id}`). */
export const FrameIdParams = Type.Object({ id: Type.String() });
/** See {@link FrameIdParams}. */
export type FrameIdParams = Static<typeof FrameIdParams>;

/** Query of `GET /frame-api/bets`: `cursor` (the previous page's `next`) and `limit` 1..200 (default 50). */
export const FrameBetListQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String()),
    limit: Type.Optional(Type.String({ description: '1..200, default 50' })),
  },
  { additionalProperties: false },
);
/** See {@link FrameBetListQuery}. */
export type FrameBetListQuery = Static<typeof FrameBetListQuery>;

/**
 * Query of `GET /frame-api/banners`: where the banners go (`placement`, default `top`) and the locale (default the
 * session's).
 */
export const FrameBannerQuery = Type.Object(
  {
    placement: Type.Optional(
      Type.String({
        pattern: '^[a-z0-9_-]{1,40}$',
        description: 'where the banners go; default "top"',
      }),
    ),
    locale: Type.Optional(
      Type.String({
        pattern: '^[a-z]{2}(-[A-Z]{2})?$',
        description: "default: the session's locale",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ placement: 'top', locale: 'en' }] },
);
/** See {@link FrameBannerQuery}. */
export type FrameBannerQuery = Static<typeof FrameBannerQuery>;
