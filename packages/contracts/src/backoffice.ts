/**
 * Wire formats of the backoffice's own operator reads: the operator home (`GET /admin/overview`), the figures an
 * operator runs a book from. Money is a decimal string with 6 decimals per currency (the decimal strings rule);
 * exposure is in EUR. The turnover and GGR figures are the daily report's (`GET /reports/daily`) summed over white
 * labels, so the home and the reports agree for the same window.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { ExposureView } from './risk.js';

/** Query of `GET /admin/overview`: the window `[from, to)` (ISO 8601, at most 92 days, as the reports). */
export const OverviewQuery = Type.Object(
  {
    from: Type.String({ format: 'date-time', description: 'window start (inclusive), ISO 8601' }),
    to: Type.String({
      format: 'date-time',
      description: 'window end (exclusive), ISO 8601; at most 92 days',
    }),
  },
  { additionalProperties: false },
);
/** Query of the operator home. */
export type OverviewQuery = Static<typeof OverviewQuery>;

const Money = (description: string) => Type.String({ description: `${description}; 6 decimals` });

/** Bet figures of one currency, one white label or all, over a window or one day. */
export const OverviewFigures = Type.Object({
  currency: Type.String({ description: 'ISO 4217 alpha-3' }),
  bets_placed: Type.Integer(),
  bets_accepted: Type.Integer(),
  bets_declined: Type.Integer({ description: 'declined, place errors and forced declines' }),
  turnover: Money('Σ stake of the accepted bets (the daily report’s stake)'),
  settled_stake: Money('Σ stake of the settled bets'),
  settle_amount: Money('Σ settle amount of the settled bets'),
  ggr: Money('settled stake − settle amount'),
  margin: Type.Union([Type.String(), Type.Null()], {
    description: 'GGR ÷ settled stake as a fraction with 6 decimals (hold); null without settled stake',
  }),
});
/** Bet figures of one currency. */
export type OverviewFigures = Static<typeof OverviewFigures>;

/** The operator home (`GET /admin/overview`). */
export const OperatorOverview = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    generated_at: Type.String(),
    white_labels: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), {
      description: 'every white label with its name, for the ids below',
    }),
    totals: Type.Array(OverviewFigures, { description: 'every white label, per currency' }),
    by_white_label: Type.Array(
      Type.Object({ white_label_id: Type.String(), figures: Type.Array(OverviewFigures) }),
    ),
    days: Type.Array(
      Type.Object({
        day: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
        figures: Type.Array(OverviewFigures),
      }),
      { description: 'per UTC day of placement (every white label, per currency), oldest first, for charts' },
    ),
    liability: Type.Object({
      total_eur: Money('Σ exposure of the outcomes with open bets, EUR'),
      outcomes: Type.Integer({ description: 'outcomes with exposure' }),
      largest: Type.Array(ExposureView, { description: 'the ten largest exposures' }),
    }),
    callbacks_failing: Type.Array(
      Type.Object({
        white_label_id: Type.String(),
        failing: Type.Integer({ description: 'pending deliveries whose last attempt failed' }),
        oldest_at: Type.Union([Type.String(), Type.Null()], { description: 'when the oldest was written' }),
      }),
    ),
    settlement: Type.Object({
      head: Type.String({ description: 'the feed log’s latest version' }),
      processed: Type.String({ description: 'the version settlement saved' }),
      lag_entries: Type.String({ description: 'head − processed' }),
      last_entry_at: Type.Union([Type.String(), Type.Null()], {
        description: 'when the last processed entry was written to the log',
      }),
      quarantined: Type.Integer({ description: 'entries in quarantine (quarantined or retry asked)' }),
    }),
    unsupported_callbacks: Type.Array(
      Type.Object({ white_label_id: Type.String(), callback: Type.String() }),
      { description: 'optional callbacks Bookie learnt a white label does not implement' },
    ),
  },
  {
    examples: [
      {
        from: '2026-05-01T00:00:00.000Z',
        to: '2026-05-02T00:00:00.000Z',
        generated_at: '2026-05-01T18:00:00.000Z',
        white_labels: [{ id: 'wl-1', name: 'Acme Bets' }],
        totals: [
          {
            currency: 'EUR',
            bets_placed: 3,
            bets_accepted: 2,
            bets_declined: 1,
            turnover: '30.000000',
            settled_stake: '10.000000',
            settle_amount: '0.000000',
            ggr: '10.000000',
            margin: '1.000000',
          },
        ],
        by_white_label: [],
        days: [],
        liability: { total_eur: '15.000000', outcomes: 1, largest: [] },
        callbacks_failing: [{ white_label_id: 'wl-1', failing: 2, oldest_at: '2026-05-01T17:00:00.000Z' }],
        settlement: {
          head: '120',
          processed: '118',
          lag_entries: '2',
          last_entry_at: '2026-05-01T17:59:58.000Z',
          quarantined: 0,
        },
        unsupported_callbacks: [{ white_label_id: 'wl-1', callback: 'banners' }],
      },
    ],
  },
);
/** The operator home. */
export type OperatorOverview = Static<typeof OperatorOverview>;
