/**
 * Errors of the REST client: {@link BookieApiError} for an HTTP error answer of Bookie (its body
 * `{"error":{"code","message","details"}}`, or RFC 6749 §5.2 `{error, error_description}` from `/oauth/token`).
 *
 * @packageDocumentation
 */

/** An error answer of Bookie's REST API (after retries, when the status was retryable). */
export class BookieApiError extends Error {
  /** HTTP status (0 for a network error that exhausted the retries). */
  public readonly status: number;
  /** Bookie's error code (e.g. `validation_error`, `forbidden`), or the OAuth `error` (e.g. `invalid_client`). */
  public readonly code: string;
  /** Bookie's `details`, when given. */
  public readonly details: Record<string, unknown>;
  /** The raw body text. */
  public readonly body: string;

  constructor(
    status: number,
    code: string,
    message: string,
    details: Record<string, unknown> = {},
    body = '',
  ) {
    super(message);
    this.name = 'BookieApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.body = body;
  }

  /** Builds the error from an HTTP answer, reading either body shape. */
  static fromResponse(status: number, text: string): BookieApiError {
    let code = `http_${status}`;
    let message = `HTTP ${status}`;
    let details: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const err = parsed.error;
      if (typeof err === 'object' && err !== null) {
        const e = err as { code?: unknown; message?: unknown; details?: unknown };
        if (typeof e.code === 'string') code = e.code;
        if (typeof e.message === 'string') message = e.message;
        if (typeof e.details === 'object' && e.details !== null)
          details = e.details as Record<string, unknown>;
      } else if (typeof err === 'string') {
        code = err;
        message = typeof parsed.error_description === 'string' ? parsed.error_description : err;
      }
    } catch {
      // not JSON: keep the generic code
    }
    return new BookieApiError(status, code, message, details, text);
  }
}
