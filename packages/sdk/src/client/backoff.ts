/** Retry policy of the REST client: attempts, exponential backoff with full jitter, Retry-After handling. */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 4). */
  maxAttempts: number;
  /** Base of the exponential backoff in ms (default 200): retry n waits a random time in [0, base × 2^n). */
  baseDelayMs: number;
  /** Cap of one backoff wait in ms (default 5000). */
  maxDelayMs: number;
  /** Longest `Retry-After` honoured in ms (default 60000); a longer one ends the retries. */
  maxRetryAfterMs: number;
}

/** The default {@link RetryPolicy}. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  maxRetryAfterMs: 60_000,
};

/**
 * Wait before retry number `retry` (0 for the first retry): "full jitter", a uniform random time in
 * `[0, min(maxDelayMs, baseDelayMs × 2^retry))`.
 *
 * @param random - a source of uniform numbers in [0, 1) (default `Math.random`).
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/**
 * Parses a `Retry-After` header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
 *
 * @returns the wait in ms (≥ 0), or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** True for the statuses worth retrying: 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
