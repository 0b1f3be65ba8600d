import type { CallbackName, IdempotentCallbackName } from '@bookie/contracts';
import type { HeaderSource, RawBody } from '../signing.js';
import type { CallbackError } from './errors.js';
import type { ClaimingStatement } from './idempotency.js';
import type { ReceivedCallbackBodies } from './lenient.js';

/** A callback request as any HTTP framework sees it; adapters build it. */
export interface CallbackRequest {
  /** HTTP method (only `POST` is served). */
  method: string;
  /** Request path, with or without a query string, e.g. `/bet/place` or `/callbacks/bet/place`. */
  path: string;
  /** Request headers (any case). */
  headers: HeaderSource;
  /** The exact body bytes received (or their UTF-8 string); needed for the signature and the fingerprint. */
  body: RawBody;
}

/** The answer to send; adapters write it as is. */
export interface CallbackResponse {
  /** HTTP status: 204 success; 400 a the callback errors rule refusal or an invalid request; 401 bad signature; 409 idempotency conflict. */
  status: number;
  /** Response headers (lower case). */
  headers: Record<string, string>;
  /** Response body, `""` when none. */
  body: string;
}

/** What a typed handler gets besides the body. */
export interface CallbackContext<Tx> {
  /** Which callback this is. */
  name: CallbackName;
  /** The callback's `request_id` (UUID; the idempotency key, the callback requests rule). */
  requestId: string;
  /** The parsed `Foreign-Params` header: the session token's `params`, `{}` when none (the callback requests rule). */
  foreignParams: Record<string, unknown>;
  /** The request headers. */
  headers: HeaderSource;
  /**
   * The idempotency store's unit of work: with the SQL store, the open database transaction that also holds the
   * claim and will hold the stored answer; write through it so effect and answer commit together. `undefined` with
   * the memory store.
   */
  tx: Tx;
}

/** Context of the heartbeat handler (the heartbeat rule): no `request_id`, no transaction. */
export type HeartbeatContext = Pick<CallbackContext<never>, 'name' | 'foreignParams' | 'headers'>;

/** What a typed handler returns: nothing for success (204), or a {@link CallbackError} to refuse (400, the callback errors rule). */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers may simply return nothing
export type CallbackResult = void | undefined | CallbackError;

/** A typed handler of callback `K`. */
export type TypedCallbackHandler<K extends IdempotentCallbackName, Tx> = (
  body: ReceivedCallbackBodies[K],
  ctx: CallbackContext<Tx>,
) => CallbackResult | Promise<CallbackResult>;

/**
 * The partner's handlers, one per callback (the callback contract, "Endpoints", the heartbeat rule, the cash-out callbacks rule). A callback without a handler
 * answers 404 `not_implemented`, except `heartbeat`, which answers 204 by default.
 */
export type CallbackHandlers<Tx> = { [K in IdempotentCallbackName]?: TypedCallbackHandler<K, Tx> } & {
  heartbeat?: (ctx: HeartbeatContext) => void | Promise<void>;
};

/** What a statement builder gets: the {@link CallbackContext} without a transaction (the statement is its own). */
export type StatementContext = Omit<CallbackContext<never>, 'tx'>;

/**
 * A callback done as one SQL statement (see {@link ClaimingStatement}): the claim, the effect and the stored answer
 * commit in a single round trip. `answer` turns the statement's row into the callback's result, as a typed handler
 * would return it: nothing (204) exactly when `claimWhen` held, or a {@link CallbackError} (a `transient` one is
 * answered and not stored).
 */
export interface CallbackStatement extends ClaimingStatement {
  /** Maps the row (the statement's `columns`, plus `claimed`: whether this delivery took the claim) to the result. */
  answer(row: Record<string, unknown>): CallbackResult;
}

/**
 * Statement builders, one per callback, for a store that runs statements (the SQL store): each turns the body into
 * a {@link CallbackStatement}. A callback with a builder is served by it rather than by its typed handler.
 */
export type CallbackStatements = {
  [K in IdempotentCallbackName]?: (
    body: ReceivedCallbackBodies[K],
    ctx: StatementContext,
  ) => CallbackStatement;
};
