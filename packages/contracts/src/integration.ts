/**
 * Wire formats of the integration environment (DECISIONS D51, D52): the partner check's request and report, and the
 * sandbox helpers' bodies. Only a deployment with `BOOKIE_ENV=integration` serves these operations.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';

/**
 * The error body of every Bookie HTTP API (`{"error": {"code", "message", "details"}}`), as the integration
 * operations declare their 4xx/5xx answers. `code` is a domain error code (`validation_error`, `not_found`,
 * `unauthorized`, `forbidden`, …); `details.field` names the bad field of a validation error.
 */
export const IntegrationErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Record(Type.String(), Type.Unknown()),
    }),
  },
  {
    examples: [
      {
        error: {
          code: 'validation_error',
          message: 'body.player_id: must NOT have fewer than 1 characters',
          details: { field: 'body.player_id' },
        },
      },
    ],
  },
);
/** See {@link IntegrationErrorBody}. */
export type IntegrationErrorBody = Static<typeof IntegrationErrorBody>;

/**
 * Body of `POST /integration/partner-check`: the player whose money the scenarios move at the partner (at least 20
 * in `currency`, default EUR), and optionally only some scenarios by id.
 */
export const PartnerCheckRequest = Type.Object(
  {
    player_id: Type.String({ minLength: 1, maxLength: 100 }),
    currency: Type.Optional(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 alpha-3; default EUR' }),
    ),
    only: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 50 })),
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
  expected_balance: BalanceView,
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
