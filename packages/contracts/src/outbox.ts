import { type Static, Type } from '@sinclair/typebox';

/**
 * The operator's view of one callback delivery in the outbox (the callback rules): what was sent, how often,
 * and the last error. Times are ISO 8601 UTC strings; `id` is the outbox sequence number as a decimal string.
 */
export const CallbackDeliveryView = Type.Object(
  {
    id: Type.String({ description: 'outbox id (decimal integer string)' }),
    request_id: Type.String({ format: 'uuid' }),
    white_label_id: Type.String(),
    bet_id: Type.String(),
    path: Type.String({ description: 'callback path, e.g. /bet/accept' }),
    mode: Type.Union([Type.Literal('async'), Type.Literal('sync')], {
      description: 'sync: /bet/place, called inline by placement; async: delivered by the dispatcher',
    }),
    status: Type.Union(
      [
        Type.Literal('pending'),
        Type.Literal('delivered'),
        Type.Literal('failed'),
        Type.Literal('unsupported'),
      ],
      {
        description:
          'unsupported: the partner answered 404/405/501 to an optional callback (insurance cancel, cash-out, heartbeat); the other callbacks of the bet go on',
      },
    ),
    attempts: Type.Integer(),
    next_attempt_at: Type.Union([Type.String(), Type.Null()]),
    last_status: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    last_attempt_at: Type.Union([Type.String(), Type.Null()]),
    delivered_at: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    body: Type.Optional(Type.String({ description: 'the exact bytes sent on every attempt' })),
    foreign_params: Type.Optional(Type.String({ description: 'the Foreign-Params header value' })),
  },
  { $id: 'CallbackDeliveryView' },
);
/** See {@link CallbackDeliveryView}. */
export type CallbackDeliveryView = Static<typeof CallbackDeliveryView>;

/** Query of `GET /admin/callbacks`: filters and paging (newest first; `before` is an outbox id). */
export const CallbackDeliveryQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union([
        Type.Literal('pending'),
        Type.Literal('delivered'),
        Type.Literal('failed'),
        Type.Literal('unsupported'),
      ]),
    ),
    failing: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    bet_id: Type.Optional(Type.String()),
    white_label_id: Type.Optional(Type.String()),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1..1000, default 100' })),
  },
  { additionalProperties: false },
);
/** See {@link CallbackDeliveryQuery}. */
export type CallbackDeliveryQuery = Static<typeof CallbackDeliveryQuery>;

/** Path of `GET /admin/callbacks/{id}` and `POST /admin/callbacks/{id}/retry`: the outbox id or the `request_id`. */
export const CallbackDeliveryParams = Type.Object({
  id: Type.String({ description: 'outbox id or request_id' }),
});
/** See {@link CallbackDeliveryParams}. */
export type CallbackDeliveryParams = Static<typeof CallbackDeliveryParams>;

/** Answer of `GET /admin/callbacks`: one page of {@link CallbackDeliveryView}, newest first (example in examples.ts). */
export const CallbackDeliveryList = Type.Object(
  { items: Type.Array(CallbackDeliveryView) },
  { title: 'CallbackDeliveryList' },
);
/** See {@link CallbackDeliveryList}. */
export type CallbackDeliveryList = Static<typeof CallbackDeliveryList>;
