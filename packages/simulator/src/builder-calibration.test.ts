import { footballOdd } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import {
  builderCalibration,
  type CalibrationMatch,
  COMMON_COMBINATIONS,
  calibrated,
  formatBuilderCalibration,
} from './builder-calibration.js';

const match = (i: number, home: number, away: number): CalibrationMatch => ({
  id: `m${i}`,
  oneXTwo: { home: '2.10', draw: '3.40', away: '3.60' },
  total: { line: '2.5', over: '1.95', under: '1.95' },
  fullTime: { home, away },
});

// a tiny season: 2-1, 1-1, 0-0, 3-0
const season = [match(1, 2, 1), match(2, 1, 1), match(3, 0, 0), match(4, 3, 0)];
const line = (name: string) => {
  const c = builderCalibration(season);
  const l = c.lines.find((x) => x.name === name);
  if (!l) throw new Error(name);
  return l;
};

describe('builderCalibration', () => {
  it('fits every match and counts the hits on the real scores', () => {
    const c = builderCalibration(season);
    expect(c).toMatchObject({ matches: 4, skipped: 0 });
    expect(c.lines).toHaveLength(COMMON_COMBINATIONS.length);
    expect(line('home & over 2.5')).toMatchObject({ n: 4, hits: 2, hit_rate: 0.5 });
    expect(line('btts & under 2.5')).toMatchObject({ hits: 1 });
    expect(line('draw & btts no')).toMatchObject({ hits: 1 });
    expect(line('home & btts & over 3.5')).toMatchObject({ hits: 0, rel_diff: null });
    expect(line('home & btts no & over 1.5')).toMatchObject({ hits: 1 });
  });

  it('states the model mean, the relative difference and z consistently', () => {
    const l = line('home & over 2.5');
    // same odds every match: the mean is the model's one probability, between 0 and P(home)
    expect(l.model_mean_p).toBeGreaterThan(0.15);
    expect(l.model_mean_p).toBeLessThan(0.46);
    expect(l.rel_diff).toBeCloseTo((l.model_mean_p - 0.5) / 0.5, 12);
    const se = Math.sqrt(4 * l.model_mean_p * (1 - l.model_mean_p)) / 4;
    expect(l.z).toBeCloseTo((0.5 - l.model_mean_p) / se, 9);
    expect(calibrated(l)).toBe(false); // n < 100
    expect(calibrated({ ...l, n: 100, rel_diff: 0.099 })).toBe(true);
    expect(calibrated({ ...l, n: 100, rel_diff: -0.11 })).toBe(false);
  });

  it('skips a match whose odds the model refuses', () => {
    const bad = { ...match(5, 1, 0), oneXTwo: { home: 'n/a', draw: '3.40', away: '3.60' } };
    const c = builderCalibration([...season, bad]);
    expect(c).toMatchObject({ matches: 4, skipped: 1 });
  });

  it('prints a row per combination', () => {
    const text = formatBuilderCalibration(builderCalibration(season));
    expect(text[0]).toContain('4 matches fitted');
    expect(text.some((t) => t.includes('home & over 2.5') && t.includes('50.0%'))).toBe(true);
  });

  it('lists no two combinations won by the same final scores', () => {
    const seen = new Map<string, string>();
    for (const c of COMMON_COMBINATIONS) {
      const odds = c.legs.map((l) => {
        const r = footballOdd(l.type, l.specifiers ?? {}, l.odd);
        if (!r.ok) throw new Error(r.message);
        return r.odd;
      });
      const wins: string[] = [];
      for (let h = 0; h < 10; h++)
        for (let a = 0; a < 10; a++)
          if (odds.every((o) => o.result({ home: h, away: a }) === 1)) wins.push(`${h}:${a}`);
      const key = wins.join(',');
      expect(seen.get(key), `${c.name} wins on the same scores`).toBeUndefined();
      seen.set(key, c.name);
    }
    expect(seen.size).toBeGreaterThanOrEqual(30);
  });
});
