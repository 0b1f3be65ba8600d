/**
 * The one error type of the Bookie platform (ARCHITECTURE "Inside the server": domain errors are thrown as one
 * `DomainError(code, message, details)`; only the HTTP error handler turns codes into statuses).
 *
 * @packageDocumentation
 */

/**
 * Every error code the platform throws. A closed string union: the server maps each code to one HTTP status
 * in one place; the wire error body is `{"error": {"code": string, "data"?: object}}` (the callback errors rule).
 *
 * - `validation_error`: malformed input; `details.field` names the field (e.g. `legs[1].odds`).
 * - `not_found`: an entity (bet, sport event, white label…) does not exist.
 * - `conflict`: a state transition is not allowed now (e.g. settling a settled bet), or an idempotency clash.
 * - `idempotency_conflict`: an idempotency key (a frame bet's `client_key`, the partner-reported bets rule's rule) was used before
 *   with another request; HTTP 409.
 * - `unauthorized`: no or invalid credentials (RFC 6750).
 * - `forbidden`: valid credentials without the right (e.g. an address off the IP allowlist, the partner tokens rule).
 * - `rate_limited`: too many requests.
 * - `version_expired`: a feed version older than retention or above the head (the feed log rule, HTTP 409).
 * - `restricted`: a bet was declined by one or more restrictions (the callback contract, "Restriction"); `details.restrictions`.
 * - `not_resulted`: settlement asked for a bet whose legs are not all resulted (odd status 0).
 * - `unavailable`: a dependency is temporarily unavailable.
 * - `internal_error`: a bug or an unexpected failure.
 */
export type ErrorCode =
  | 'validation_error'
  | 'not_found'
  | 'conflict'
  | 'idempotency_conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'rate_limited'
  | 'version_expired'
  | 'restricted'
  | 'not_resulted'
  | 'unavailable'
  | 'internal_error';

/** All error codes, in declaration order; useful for exhaustive code → status maps and tests. */
export const ERROR_CODES: readonly ErrorCode[] = [
  'validation_error',
  'not_found',
  'conflict',
  'idempotency_conflict',
  'unauthorized',
  'forbidden',
  'rate_limited',
  'version_expired',
  'restricted',
  'not_resulted',
  'unavailable',
  'internal_error',
] as const;

/**
 * A domain error: a stable machine `code`, a human `message`, and optional structured `details`.
 * For `validation_error`, `details.field` is the path of the offending field (e.g. `"legs[1].odds"`) and the
 * message names it too.
 *
 * @example `throw new DomainError('validation_error', 'stake: must be positive', { field: 'stake' })`
 */
export class DomainError extends Error {
  /** Stable machine-readable code (see {@link ErrorCode}). */
  public readonly code: ErrorCode;
  /** Structured context; for validation errors `{ field: string, ... }`. */
  public readonly details?: Record<string, unknown>;

  /**
   * @param code - the error code.
   * @param message - a human-readable message; for validation errors it starts with the field path.
   * @param details - optional structured context (`field` for validation errors).
   */
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    if (details !== undefined) this.details = details;
  }
}

/**
 * Builds a `validation_error` naming `field` in both the message (`"<field>: <reason>"`) and `details.field`.
 *
 * @param field - path of the offending field, e.g. `"legs[0].odds"`.
 * @param reason - what is wrong, e.g. `"must not use an exponent"`.
 * @param extra - more details merged into `details`.
 */
export function validationError(field: string, reason: string, extra?: Record<string, unknown>): DomainError {
  return new DomainError('validation_error', `${field}: ${reason}`, { field, ...extra });
}

/** True when `e` is a {@link DomainError}, optionally with the given code. */
export function isDomainError(e: unknown, code?: ErrorCode): e is DomainError {
  return e instanceof DomainError && (code === undefined || e.code === code);
}
