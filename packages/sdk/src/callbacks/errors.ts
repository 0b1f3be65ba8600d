/**
 * Error answers of a partner's callback server (the callback contract, "Errors", the callback errors rule): status 400 with the body
 * `{"error": {"code": string, "data"?: object}}`. A handler returns (or throws) one of these to refuse a callback;
 * the answer is stored and replayed like a success.
 *
 * @packageDocumentation
 */
import type { CallbackErrorBody, FinalPlaceErrorCode } from '@bookie/contracts';
import { formatMoney, type Rational } from '@bookie/core';

/** Options of a {@link CallbackError}. */
export interface CallbackErrorOptions {
  /** HTTP status of the answer (default 400, the callback contract, "Errors"). */
  status?: number;
  /**
   * A refusal that may change with time (say, a bet not known yet): answered, but not stored, and the claim is
   * released (the SQL transaction rolled back), so the platform's retry is evaluated afresh. Default false: the
   * answer is final and replayed on every repeat.
   */
  transient?: boolean;
}

/**
 * A callback refusal: an HTTP `status` (400 unless said otherwise) and a the callback errors rule error body. Returning or throwing it
 * from a handler produces that answer; it is a decision, not a failure, so it is stored and replayed on every repeat
 * of the same `request_id` (unless `transient`). Throw any other error to answer 500 and release the claim.
 */
export class CallbackError extends Error {
  /** HTTP status of the answer (400 for every code (see "callback errors" in docs/decisions.md)). */
  public readonly status: number;
  /** The body (see "callback errors" in docs/decisions.md). */
  public readonly body: CallbackErrorBody;
  /** True when the answer is not stored (see {@link CallbackErrorOptions.transient}). */
  public readonly transient: boolean;

  /**
   * @param code - the error code, e.g. `"not_enough_balance"` (the callback errors rule).
   * @param data - structured data, e.g. `{actual_balance: "5.000000"}`; omitted from the body when undefined.
   * @param options - status (default 400) and whether the refusal is transient.
   */
  constructor(code: string, data?: Record<string, unknown>, options: CallbackErrorOptions = {}) {
    super(code);
    this.name = 'CallbackError';
    this.status = options.status ?? 400;
    this.transient = options.transient ?? false;
    this.body = data === undefined ? { error: { code } } : { error: { code, data } };
  }

  /** The error code. */
  get code(): string {
    return this.body.error.code;
  }
}

/** True when `e` is a {@link CallbackError}. */
export function isCallbackError(e: unknown): e is CallbackError {
  return e instanceof CallbackError;
}

/**
 * A generic refusal with any code (the callback errors rule). On `/bet/place` a code outside `FINAL_PLACE_ERROR_CODES` makes
 * Bookie retry the hold; on every other callback any error makes Bookie retry (the callback retries rule).
 */
export function callbackError(
  code: string,
  data?: Record<string, unknown>,
  options?: CallbackErrorOptions,
): CallbackError {
  return new CallbackError(code, data, options);
}

/**
 * `/bet/place` refused for balance (the callback errors rule): `{"error":{"code":"not_enough_balance","data":{"actual_balance"}}}`.
 *
 * @param actualBalance - the player's available balance: a decimal string with 6 decimals, or an exact rational
 *   (written with 6 decimals, half-up).
 */
export function notEnoughBalance(actualBalance: string | Rational): CallbackError {
  const actual_balance = typeof actualBalance === 'string' ? actualBalance : formatMoney(actualBalance);
  return new CallbackError('not_enough_balance' satisfies FinalPlaceErrorCode, { actual_balance });
}

/** `/bet/place` refused for player limits (the callback errors rule): `data.types` names the limits crossed. */
export function playerLimitCrossed(types: readonly string[]): CallbackError {
  return new CallbackError('player_limit_crossed' satisfies FinalPlaceErrorCode, { types: [...types] });
}

/** `/bet/place` refused: the partner does not know the player's session (the callback errors rule). */
export function authSessionUnknown(): CallbackError {
  return new CallbackError('auth_session_unknown' satisfies FinalPlaceErrorCode);
}

/** `/bet/place` refused: the player's session has expired; Bookie ends the session (the callback errors rule, the player sessions rule). */
export function authCredentialsExpired(): CallbackError {
  return new CallbackError('auth_credentials_expired' satisfies FinalPlaceErrorCode);
}
