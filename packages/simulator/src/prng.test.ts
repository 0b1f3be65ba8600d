import { describe, expect, it } from 'vitest';
import { Rng } from './prng.js';

describe('Rng', () => {
  it('gives the same sequence for the same seed, and another for another seed', () => {
    const a = new Rng('s');
    const b = new Rng('s');
    const c = new Rng('t');
    const xs = Array.from({ length: 50 }, () => a.next());
    expect(Array.from({ length: 50 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 50 }, () => c.next())).not.toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });

  it('pins its first values (a change of algorithm changes every replay)', () => {
    const r = new Rng('1');
    expect([r.int(1000), r.int(1000), r.int(1000)]).toEqual([333, 157, 104]);
    expect(new Rng('bookie').next()).toBe(0.6569072967395186);
  });

  it('forks independent streams by label', () => {
    const root = new Rng('root');
    const f1 = root.fork('a');
    root.next(); // drawing from the parent does not move a fork
    const f2 = new Rng('root').fork('a');
    expect(f1.next()).toBe(f2.next());
    expect(new Rng('root').fork('a').next()).not.toBe(new Rng('root').fork('b').next());
  });

  it('draws integers in range, roughly uniformly', () => {
    const r = new Rng('ints');
    const counts = new Array(6).fill(0);
    for (let i = 0; i < 6000; i++) counts[r.int(6)]++;
    for (const c of counts) expect(c).toBeGreaterThan(850);
    for (let i = 0; i < 200; i++) {
      const v = r.between(3, 5);
      expect(v >= 3 && v <= 5).toBe(true);
    }
    expect(() => r.int(0)).toThrow(RangeError);
    expect(() => r.int(1.5)).toThrow(RangeError);
  });

  it('picks by weight, never a zero weight', () => {
    const r = new Rng('w');
    const seen = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 4000; i++)
      seen[
        r.weighted([
          ['a', 3],
          ['b', 1],
          ['c', 0],
        ] as const)
      ]++;
    expect(seen.c).toBe(0);
    expect(seen.a / seen.b).toBeGreaterThan(2.4);
    expect(seen.a / seen.b).toBeLessThan(3.8);
    expect(() => r.weighted([['x', 0]])).toThrow(RangeError);
  });

  it('samples distinct elements', () => {
    const r = new Rng('sample');
    const items = [1, 2, 3, 4, 5, 6, 7];
    for (let i = 0; i < 100; i++) {
      const s = r.sample(items, 4);
      expect(new Set(s).size).toBe(4);
      for (const x of s) expect(items).toContain(x);
    }
    expect(r.sample(items, 10).sort()).toEqual(items);
    expect(() => r.pick([])).toThrow(RangeError);
  });
});
