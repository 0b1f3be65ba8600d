import { describe, expect, it } from 'vitest';
import { RETRY_FOREVER_MS, RETRY_LADDER_MS, retryDelayMs } from './backoff.js';

describe('retry ladder (D10)', () => {
  it('follows 1 s, 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 2 h', () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((a) => retryDelayMs(a, mid))).toEqual([
      ...RETRY_LADDER_MS,
      RETRY_FOREVER_MS,
      RETRY_FOREVER_MS,
    ]);
    expect(RETRY_LADDER_MS).toEqual([1000, 5000, 30000, 120000, 600000, 1800000, 3600000]);
  });

  it('jitters by ±20 %', () => {
    expect(retryDelayMs(2, () => 0)).toBe(4000);
    expect(retryDelayMs(2, () => 0.999999)).toBeCloseTo(6000, 0);
  });
});
