/**
 * Wire formats of the integration environment (the environments and tools rule, the environments and tools rule): the partner check's request and report, and the
 * sandbox helpers' bodies. Only a deployment with `BOOKIE_ENV=integration` serves these operations.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { LearntSupport } from './optional-callbacks.js';
import { codeBounds, describeCodes, ODD_STATUS, ODD_STATUS_CODES } from './status-codes.js';

/** The odd statuses a sandbox result sets: the feed's results, 1 win … 6 cancelled. */
const SANDBOX_RESULTS = { min: ODD_STATUS.WIN, max: ODD_STATUS.CANCELLED };

/**
 * Body of `POST /integration/partner-check`: the player whose money the scenarios move at the partner (at least 20
 * in `currency`, default EUR), optionally only some scenarios by id, and the means to provoke the final place errors
 * only the partner can decide (without them those scenarios are reported `not_provoked`).
 */
export const PartnerCheckRequest = Type.Object(
  {
    player_id: Type.String({ minLength: 1, maxLength: 100 }),
    currency: Type.Optional(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 alpha-3; default EUR' }),
    ),
    only: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 50 })),
    unknown_session_params: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Foreign-Params of a session the partner does not know: place must answer auth_session_unknown',
      }),
    ),
    expired_session_params: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Foreign-Params of a session the partner holds expired: place must answer auth_credentials_expired',
      }),
    ),
    limited_player_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "a player whose limits refuse the check's bets: place must answer player_limit_crossed",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ player_id: 'player-1', currency: 'EUR' }] },
);
/** See {@link PartnerCheckRequest}. */
export type PartnerCheckRequest = Static<typeof PartnerCheckRequest>;

const BalanceView = Type.Object({ available: Type.String(), held: Type.String() });

/** One scenario of a partner check report: `not_provoked` and `unsupported` are not failures. */
export const PartnerCheckScenarioResult = Type.Object({
  id: Type.String(),
  rule: Type.String({ description: 'the contract rule the scenario checks' }),
  status: Type.Union([
    Type.Literal('pass'),
    Type.Literal('fail'),
    Type.Literal('unsupported'),
    Type.Literal('not_provoked'),
  ]),
  message: Type.Optional(Type.String()),
  answers: Type.Array(Type.Object({ callback: Type.String(), status: Type.Integer() })),
  expected_balance: Type.Object(
    { available: Type.String(), held: Type.String() },
    {
      description:
        "the balance the partner should show; the change since the start when the partner's balance is not read",
    },
  ),
  observed_balance: Type.Optional(BalanceView),
});

/** The report of a partner check: one result per scenario, `ok` when none failed. */
export const PartnerCheckReport = Type.Object(
  {
    callback_url: Type.String(),
    player_id: Type.String(),
    currency: Type.String(),
    balance_source: Type.Union([Type.String(), Type.Null()]),
    started_at: Type.String(),
    finished_at: Type.String(),
    ok: Type.Boolean(),
    counts: Type.Object({
      pass: Type.Integer(),
      fail: Type.Integer(),
      unsupported: Type.Integer(),
      not_provoked: Type.Integer(),
    }),
    optional_callbacks: Type.Record(
      Type.String(),
      Type.Object({
        checked: Type.Union(
          [Type.Literal('supported'), Type.Literal('unsupported'), Type.Literal('not_checked')],
          {
            description:
              'what the check found: supported (answered), unsupported (404, 405 or 501), not_checked (no scenario of it ran)',
          },
        ),
        announced: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
        learnt: Type.Optional(LearntSupport),
        supported: Type.Optional(Type.Boolean()),
      }),
      {
        description:
          'per optional callback (heartbeat, banners, cash_out, insurance, insurance_cancel): what the check found and, through the API, what the partner announced and what Bookie learnt from live traffic',
      },
    ),
    scenarios: Type.Array(PartnerCheckScenarioResult),
  },
  {
    examples: [
      {
        callback_url: 'https://partner.example/callbacks',
        player_id: 'player-1',
        currency: 'EUR',
        balance_source: null,
        started_at: '2024-05-01T12:00:00.000Z',
        finished_at: '2024-05-01T12:00:02.000Z',
        ok: true,
        counts: { pass: 1, fail: 0, unsupported: 0, not_provoked: 0 },
        optional_callbacks: {
          heartbeat: { checked: 'not_checked', announced: null, learnt: 'unknown', supported: false },
          cash_out: { checked: 'unsupported', announced: null, learnt: 'unsupported', supported: false },
        },
        scenarios: [
          {
            id: 'place_accept',
            rule: 'spec 01 Bet: /bet/place holds the stake; /bet/accept captures it. Both 2xx.',
            status: 'pass',
            answers: [
              { callback: '/bet/place', status: 204 },
              { callback: '/bet/accept', status: 204 },
            ],
            expected_balance: { available: '-2.000000', held: '0.000000' },
          },
        ],
      },
    ],
  },
);
/** See {@link PartnerCheckReport}. */
export type PartnerCheckReport = Static<typeof PartnerCheckReport>;

/**
 * Body of `POST /integration/sandbox/sport-events/{id}/markets/{market_id}/result`: the result of each odd by id
 * (odd status 1 win, 2 loss, 3 half win, 4 half loss, 5 refunded, 6 cancelled); odds not listed lose (2).
 */
export const SandboxResultMarketBody = Type.Object(
  {
    odds: Type.Record(
      Type.String({ minLength: 1 }),
      Type.Integer(codeBounds(ODD_STATUS_CODES, SANDBOX_RESULTS)),
      {
        description: `odd id → odd status: ${describeCodes(ODD_STATUS_CODES, SANDBOX_RESULTS)}`,
      },
    ),
  },
  { additionalProperties: false, examples: [{ odds: { '1': 1 } }] },
);
/** See {@link SandboxResultMarketBody}. */
export type SandboxResultMarketBody = Static<typeof SandboxResultMarketBody>;

/** Body of `POST /integration/sandbox/sport-events/{id}/markets/{market_id}/odds`: new decimal odds by odd id. */
export const SandboxMoveOddsBody = Type.Object(
  {
    odds: Type.Record(
      Type.String({ minLength: 1 }),
      Type.String({
        pattern: '^[1-9][0-9]{0,5}(\\.[0-9]{1,12})?$',
        description: 'decimal odds > 1, e.g. "2.10"',
      }),
      { description: 'odd id → new decimal odds' },
    ),
  },
  { additionalProperties: false, examples: [{ odds: { '1': '2.10', '2': '1.75' } }] },
);
/** See {@link SandboxMoveOddsBody}. */
export type SandboxMoveOddsBody = Static<typeof SandboxMoveOddsBody>;

/** Path parameters of the market sandbox helpers. */
export const SandboxMarketParams = Type.Object({
  id: Type.String({ minLength: 1, description: 'sport event id' }),
  market_id: Type.String({ minLength: 1, description: 'market id' }),
});
/** See {@link SandboxMarketParams}. */
export type SandboxMarketParams = Static<typeof SandboxMarketParams>;

/** Answer of a market sandbox helper: the feed version of the change it appended. */
export const SandboxChangeResponse = Type.Object(
  { id: Type.String(), market_id: Type.String(), version: Type.String() },
  { examples: [{ id: 'sr:match:1001', market_id: '1', version: '42' }] },
);
/** See {@link SandboxChangeResponse}. */
export type SandboxChangeResponse = Static<typeof SandboxChangeResponse>;

/** Body of `POST /integration/sandbox/sessions/expire`: a player session token of the calling white label. */
export const SandboxExpireSessionBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false, examples: [{ token: 'bkst_…' }] },
);
/** See {@link SandboxExpireSessionBody}. */
export type SandboxExpireSessionBody = Static<typeof SandboxExpireSessionBody>;

/** Answer of `POST /integration/sandbox/sessions/expire`: when the session now expired. */
export const SandboxExpireSessionResponse = Type.Object(
  { expired_at: Type.String({ description: 'RFC 3339' }) },
  { examples: [{ expired_at: '2024-05-01T12:00:00.000Z' }] },
);
/** See {@link SandboxExpireSessionResponse}. */
export type SandboxExpireSessionResponse = Static<typeof SandboxExpireSessionResponse>;
