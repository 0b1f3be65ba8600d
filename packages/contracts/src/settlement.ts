/**
 * Settlement's admin API (operator token; docs/adr/0008-settlement.md): the operator's actions on a bet (refund,
 * void, cancel, resettle), a bet's settlement ledger, the settlement consumer's status and quarantine, and the
 * reconciliation report. Amounts are decimal strings with 6 decimals; times are ISO 8601 date-times (UTC).
 *
 * @packageDocumentation
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
// the bet view's examples are attached there: the operator action's example shows that bet
import './examples.js';
import { BetView } from './frame.js';
import { describeCodes, SETTLE_TYPE_CODES } from './status-codes.js';

/** Sets `examples` of `schema` (the OpenAPI document's example request or answer) and returns it. */
function withExamples<T extends TSchema>(schema: T, ...values: Static<T>[]): T {
  return { ...schema, examples: values } as T;
}

/** Path of the admin operations on one bet (`/admin/bets/{id}/…`): the bet's id (up to 64 characters). */
export const AdminBetParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
/** Path of the admin operations on one bet. */
export type AdminBetParams = Static<typeof AdminBetParams>;

/** Why an operator acts: 1 to 500 characters, kept in the audit log (and as the selections' `status_reason`). */
export const OperatorReason = Type.String({
  minLength: 1,
  maxLength: 500,
  description: 'why; kept in the audit log',
});

/** Body of `POST /admin/bets/{id}/refund` and `/void`: the reason (audited). */
export const OperatorReasonBody = withExamples(
  Type.Object({ reason: OperatorReason }, { additionalProperties: false, title: 'OperatorReasonBody' }),
  { reason: 'match abandoned, refund per policy' },
);
/** Body of `POST /admin/bets/{id}/refund` and `/void`. */
export type OperatorReasonBody = Static<typeof OperatorReasonBody>;

/**
 * Body of `POST /admin/bets/{id}/cancel`: the reason and the selection indexes (0-based, distinct) to cancel; every
 * selection when absent. A cancelled selection counts with factor 1 (spec 01: winnings recalculated on the others).
 */
export const CancelSelectionsBody = withExamples(
  Type.Object(
    {
      reason: OperatorReason,
      selections: Type.Optional(
        Type.Array(Type.Integer({ minimum: 0 }), {
          minItems: 1,
          description:
            'selection indexes (0-based: the plain selections, then the bet builders) to cancel; default all',
        }),
      ),
    },
    { additionalProperties: false, title: 'CancelSelectionsBody' },
  ),
  { reason: 'second leg played behind closed doors', selections: [1] },
);
/** Body of `POST /admin/bets/{id}/cancel`. */
export type CancelSelectionsBody = Static<typeof CancelSelectionsBody>;

/**
 * Body of `POST /admin/bets/{id}/resettle`: the reason, and `reinstate` to drop the results an operator set (refund,
 * void, cancel) before the bet is recomputed from the feed's results.
 */
export const ResettleBody = withExamples(
  Type.Object(
    {
      reason: OperatorReason,
      reinstate: Type.Optional(
        Type.Boolean({ description: 'drop results set by an operator (refund, void, cancel) first' }),
      ),
    },
    { additionalProperties: false, title: 'ResettleBody' },
  ),
  { reason: 'result corrected by the data provider', reinstate: false },
);
/** Body of `POST /admin/bets/{id}/resettle`. */
export type ResettleBody = Static<typeof ResettleBody>;

/**
 * Answer of an operator action: the action, the bet's settlement transition (`settled`, `unsettled`, `resettled` =
 * an unsettle and a settle, or `none`), the number of callbacks written for the partner, and the bet as it is now.
 */
export const OperatorActionResult = withExamples(
  Type.Object(
    {
      action: Type.String(),
      transition: Type.String({ description: 'settled | unsettled | resettled | none' }),
      callbacks: Type.Integer({ description: 'callbacks written for the partner' }),
      bet: Type.Object(BetView.properties),
    },
    { title: 'OperatorActionResult' },
  ),
  {
    action: 'refund',
    transition: 'settled',
    callbacks: 1,
    bet: {
      ...(BetView.examples as BetView[])[0]!,
      status: 6,
      state: 'refunded_manually',
      payout: '10.000000',
    },
  },
);
/** Answer of an operator action. */
export type OperatorActionResult = Static<typeof OperatorActionResult>;

/**
 * One row of a bet's settlement ledger: a `/bet/settle` or `/bet/unsettle` sent to the partner (DECISIONS D12), in
 * order (`seq`), with its amount (6 decimals), settle type (`settle_type`, null for an unsettle), payout, the
 * callback's `request_id`, what caused it (`feed:<v>`, `rollback:<v>`, `sweep`, `operator:<action>`) and when.
 */
export const SettlementLedgerEntry = Type.Object(
  {
    seq: Type.Integer(),
    kind: Type.String({ description: 'settle | unsettle' }),
    amount: Type.String({ description: 'settle_amount or unsettle_amount, 6 decimals' }),
    settle_type: Type.Union([Type.Integer(), Type.Null()], { description: describeCodes(SETTLE_TYPE_CODES) }),
    payout: Type.Union([Type.String(), Type.Null()]),
    request_id: Type.String(),
    cause: Type.Union([Type.String(), Type.Null()]),
    at: Type.String(),
  },
  { title: 'SettlementLedgerEntry' },
);
/** One row of a bet's settlement ledger. */
export type SettlementLedgerEntry = Static<typeof SettlementLedgerEntry>;

const ledgerExample: SettlementLedgerEntry = {
  seq: 1,
  kind: 'settle',
  amount: '25.000000',
  settle_type: 1,
  payout: '25.000000',
  request_id: '7c6b5a49-3827-4160-9f5e-4d3c2b1a0f9e',
  cause: 'results',
  at: '2024-05-01T20:00:00.000Z',
};

/** Answer of `GET /admin/bets/{id}`: the bet and its settlement ledger. */
export const BetWithSettlements = withExamples(
  Type.Object(
    { bet: BetView, settlements: Type.Array(SettlementLedgerEntry) },
    { title: 'BetWithSettlements' },
  ),
  { bet: (BetView.examples as BetView[])[0]!, settlements: [ledgerExample] },
);
/** Answer of `GET /admin/bets/{id}`. */
export type BetWithSettlements = Static<typeof BetWithSettlements>;

/**
 * Answer of `GET /admin/bets/{id}/settlements`: the bet's settlement ledger; settles minus unsettles is its current
 * payout.
 */
export const SettlementLedger = withExamples(
  Type.Object({ items: Type.Array(SettlementLedgerEntry) }, { title: 'SettlementLedger' }),
  { items: [ledgerExample] },
);
/** Answer of `GET /admin/bets/{id}/settlements`. */
export type SettlementLedger = Static<typeof SettlementLedger>;

/**
 * Answer of `GET /admin/settlement/status`: whether this process leads settlement (one process at a time, under a
 * lease), the feed version of the last entry it processed (decimal string), its counts since start, and the number
 * of log entries waiting in quarantine (more properties may follow).
 */
export const SettlementStatus = withExamples(
  Type.Object(
    {
      leader: Type.Boolean({ description: 'this process settles (one process at a time)' }),
      processed: Type.Optional(Type.String({ description: 'feed version of the last entry processed' })),
      entries: Type.Optional(Type.Integer()),
      settled: Type.Optional(Type.Integer()),
      unsettled: Type.Optional(Type.Integer()),
      resettled: Type.Optional(Type.Integer()),
      callbacks: Type.Optional(Type.Integer()),
      failures: Type.Optional(Type.Integer({ description: 'entries that failed and were retried' })),
    },
    { title: 'SettlementStatus', additionalProperties: true },
  ),
  {
    leader: true,
    processed: '18',
    entries: 18,
    settled: 1,
    unsettled: 0,
    resettled: 0,
    callbacks: 1,
    failures: 0,
  },
);
/** Answer of `GET /admin/settlement/status`. */
export type SettlementStatus = Static<typeof SettlementStatus>;

/**
 * Answer of `GET /admin/reports/reconcile`: JSON `{from, to, generated_at, totals, bets, cash_outs}` — per white
 * label and currency the stakes accepted, settles and unsettles (6 decimals), open exposure and cash-outs, and the
 * per-bet ledger check (DECISIONS D12) — or CSV with `format=csv`.
 */
export const ReconciliationReport = withExamples(
  Type.Unknown({
    title: 'ReconciliationReport',
    description: 'JSON `{from, to, generated_at, totals, bets, cash_outs}`; CSV with format=csv',
  }),
  {
    from: '2024-05-01T00:00:00.000Z',
    to: '2024-06-01T00:00:00.000Z',
    generated_at: '2024-06-01T08:00:00.000Z',
    totals: [
      {
        white_label_id: '0b6f2c1e-6a4f-4a8e-9a51-3f1c2d4e5a60',
        currency: 'EUR',
        bets_accepted: 1,
        stakes_accepted: '10.000000',
        settles: 1,
        settle_amount: '25.000000',
        unsettles: 0,
        unsettle_amount: '0.000000',
        net_payout: '25.000000',
        unsettled_bets: 0,
        open_bets: 0,
        open_exposure: '0.000000',
        ledger_mismatches: 0,
        cash_outs: 1,
        cash_out_stake: '4.000000',
        cash_out_paid: '5.130000',
        cash_outs_through_callbacks: 1,
        cash_out_callbacks_delivered: 1,
        cash_out_callbacks_paid: '5.130000',
        cash_out_callbacks_pending: 0,
        cash_out_mismatches: 0,
      },
    ],
    bets: { checked: 1, mismatched: 0, mismatches: [] },
    cash_outs: { mismatched: 0, mismatches: [] },
  },
);

/**
 * Query of `GET /admin/reports/reconcile`: the window [`from`, `to`) as ISO 8601 dates (midnight UTC) or date-times
 * with an offset (`to` defaults to now), `format` (`json`, the default, or `csv`) and `bets=true` for every checked
 * bet. A bad window is a validation_error naming `query.from` or `query.to`.
 */
export const ReconcileReportQuery = Type.Object(
  {
    from: Type.String({
      description: 'window start (inclusive): an ISO 8601 date (midnight UTC) or date-time with offset',
      examples: ['2024-05-01'],
    }),
    to: Type.Optional(
      Type.String({
        description: 'window end (exclusive): an ISO 8601 date or date-time with offset; default now',
        examples: ['2024-06-01T00:00:00Z'],
      }),
    ),
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
    bets: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'include every checked bet (CSV: the per-bet table)',
      }),
    ),
  },
  { additionalProperties: false },
);
/** Query of `GET /admin/reports/reconcile`. */
export type ReconcileReportQuery = Static<typeof ReconcileReportQuery>;

/**
 * Status of a quarantined log entry (docs/adr/0016-safety-and-conformance.md): `quarantined` (waiting for an
 * operator), `retry` (asked to retry), `resolved` (a retry passed), `skipped` (left unprocessed for good).
 */
export const QuarantineStatus = Type.Union(
  [Type.Literal('quarantined'), Type.Literal('retry'), Type.Literal('resolved'), Type.Literal('skipped')],
  {
    description:
      'quarantined: waiting for an operator; retry: asked to retry; resolved: a retry passed; skipped',
  },
);
/** Status of a quarantined log entry. */
export type QuarantineStatus = Static<typeof QuarantineStatus>;

/**
 * A log entry the settlement consumer gave up on after repeated failures: its log version (decimal string), status,
 * last error, failed attempts, entry type when its line parses, and when it was quarantined and last changed.
 */
export const QuarantineEntry = Type.Object(
  {
    v: Type.String({ description: 'the log version of the entry' }),
    status: QuarantineStatus,
    error: Type.String({ description: 'the last error processing it' }),
    attempts: Type.Integer({ description: 'failed attempts so far' }),
    type: Type.Optional(Type.String({ description: 'the entry type, e.g. bet_rollback' })),
    quarantined_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  {
    examples: [
      {
        v: '1042',
        status: 'quarantined',
        error: 'invalid byte sequence for encoding "UTF8": 0x00',
        attempts: 5,
        type: 'bet_rollback',
        quarantined_at: '2030-06-01T12:00:05.000Z',
        updated_at: '2030-06-01T12:00:05.000Z',
      },
    ],
  },
);
/** A quarantined log entry. */
export type QuarantineEntry = Static<typeof QuarantineEntry>;

/** Answer of `GET /admin/settlement/quarantine`: the entries, oldest first (at most 1000). */
export const QuarantineList = Type.Object(
  { items: Type.Array(QuarantineEntry) },
  { examples: [{ items: QuarantineEntry.examples }] },
);
/** Answer of `GET /admin/settlement/quarantine`. */
export type QuarantineList = Static<typeof QuarantineList>;

/** Query of `GET /admin/settlement/quarantine`: only entries of this status. */
export const QuarantineQuery = Type.Object(
  { status: Type.Optional(QuarantineStatus) },
  { additionalProperties: false },
);
/** Query of `GET /admin/settlement/quarantine`. */
export type QuarantineQuery = Static<typeof QuarantineQuery>;

/** Path of `POST /admin/settlement/quarantine/{v}/retry` and `/skip`: the entry's log version (a positive integer). */
export const QuarantineVersionParams = Type.Object({
  v: Type.String({ pattern: '^[1-9][0-9]{0,18}$', description: 'the log version of the quarantined entry' }),
});
/** Path of the quarantine decisions. */
export type QuarantineVersionParams = Static<typeof QuarantineVersionParams>;

/** Body of `POST /admin/settlement/quarantine/{v}/retry` and `/skip`: the reason (audited). */
export const QuarantineDecisionBody = Type.Object(
  { reason: OperatorReason },
  { additionalProperties: false, examples: [{ reason: 'market ids fixed by trading; replay it' }] },
);
/** Body of the quarantine decisions. */
export type QuarantineDecisionBody = Static<typeof QuarantineDecisionBody>;
