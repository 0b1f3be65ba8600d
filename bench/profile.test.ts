import { describe, expect, it } from 'vitest';
import { cpuCeiling } from './profile.js';

describe('cpuCeiling', () => {
  it('sums every process and divides the cores by the sum', () => {
    const c = cpuCeiling({ cpu_bookie_ms: 0.3, cpu_pg_bookie_ms: 0.2, cpu_client_ms: 0.1 }, 2500, 2);
    expect(c.cpu_all_ms).toBeCloseTo(0.6, 12);
    expect(c.cpu_ceiling_per_s).toBeCloseTo(2000 / 0.6, 9);
    expect(c.ceiling_share).toBeCloseTo(2500 / (2000 / 0.6), 12);
  });

  it('has no share without a rate, and nothing without CPU', () => {
    expect(cpuCeiling({ cpu_bookie_ms: 0.5 }, undefined, 4)).toEqual({
      cpu_all_ms: 0.5,
      cpu_ceiling_per_s: 8000,
    });
    expect(cpuCeiling({}, 100, 2)).toEqual({});
  });
});
