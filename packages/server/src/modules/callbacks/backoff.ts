/**
 * The retry ladder of DECISIONS D10 for every callback but /bet/place: 1 s, 5 s, 30 s, 2 min, 10 min, 30 min,
 * 1 h, then every 2 h; never given up.
 */
export const RETRY_LADDER_MS = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000] as const;
/** The interval after the ladder is exhausted (D10): every 2 h. */
export const RETRY_FOREVER_MS = 7_200_000;

/**
 * Delay before the next attempt after `failedAttempts` failures (1 = the first attempt failed), with ±20 %
 * jitter from `random()` in [0, 1).
 */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  const base = RETRY_LADDER_MS[Math.max(0, failedAttempts - 1)] ?? RETRY_FOREVER_MS;
  return base * (0.8 + 0.4 * random());
}
