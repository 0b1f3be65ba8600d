import { describe, expect, it } from 'vitest';
import { Faults, parseFaults } from './faults.js';

describe('fault injection settings', () => {
  it('validates settings', () => {
    expect(parseFaults({ error500Rate: 0.5, delayMs: 10, seed: 3 })).toEqual({
      error500Rate: 0.5,
      delayMs: 10,
      seed: 3,
    });
    expect(() => parseFaults({ error500Rate: 2 })).toThrow(/error500Rate/);
    expect(() => parseFaults({ nope: 1 })).toThrow(/nope/);
    expect(() => parseFaults([])).toThrow(/object/);
  });

  it('draws nothing with no faults, everything at rate 1, and repeats with a seed', () => {
    const none = new Faults();
    expect(
      Array.from({ length: 50 }, () => none.decide()).every((d) => !d.error500 && !d.drop && !d.created201),
    ).toBe(true);
    const all = new Faults({ error500Rate: 1, created201Rate: 1, delayRate: 1, delayMs: 5 });
    expect(all.decide()).toEqual({
      error500: true,
      drop: false,
      lostAnswer: false,
      delayMs: 5,
      created201: true,
    });
    const a = new Faults({ dropRate: 0.3, seed: 42 });
    const b = new Faults({ dropRate: 0.3, seed: 42 });
    const da = Array.from({ length: 200 }, () => a.decide().drop);
    expect(Array.from({ length: 200 }, () => b.decide().drop)).toEqual(da);
    const share = da.filter(Boolean).length / da.length;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.45);
  });

  it('updates at runtime and restarts the PRNG on a new seed', () => {
    const f = new Faults({ seed: 1 });
    expect(f.update({ lostAnswerRate: 1 }).lostAnswerRate).toBe(1);
    expect(f.decide().lostAnswer).toBe(true);
    f.update({ lostAnswerRate: 0.5, seed: 9 });
    const first = Array.from({ length: 20 }, () => f.decide().lostAnswer);
    f.update({ seed: 9 });
    expect(Array.from({ length: 20 }, () => f.decide().lostAnswer)).toEqual(first);
  });
});
