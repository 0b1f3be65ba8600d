import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it('flushes items that arrive together in one call, each caller getting its own result in order', async () => {
    const calls: number[][] = [];
    const g = new GroupCommit<number, string>(async (items) => {
      calls.push([...items]);
      return items.map((i) => `r${i}`);
    });
    const out = await Promise.all([1, 2, 3].map((i) => g.submit(i)));
    expect(out).toEqual(['r1', 'r2', 'r3']);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('gathers the items submitted while a flush runs into the next flush', async () => {
    const calls: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const g = new GroupCommit<number, number>(async (items) => {
      calls.push([...items]);
      if (calls.length === 1) await gate;
      return items.map((i) => i * 10);
    });
    const first = g.submit(1);
    await new Promise((r) => setImmediate(r));
    const later = [2, 3, 4].map((i) => g.submit(i));
    await new Promise((r) => setTimeout(r, 5));
    expect(calls).toEqual([[1]]);
    release();
    expect(await first).toBe(10);
    expect(await Promise.all(later)).toEqual([20, 30, 40]);
    expect(calls).toEqual([[1], [2, 3, 4]]);
  });

  it('respects maxBatch', async () => {
    const sizes: number[] = [];
    const g = new GroupCommit<number, number>(
      async (items) => {
        sizes.push(items.length);
        return [...items];
      },
      { maxBatch: 2 },
    );
    await Promise.all([1, 2, 3, 4, 5].map((i) => g.submit(i)));
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('when a batch fails, retries each item alone so only the bad one fails', async () => {
    const calls: number[][] = [];
    const g = new GroupCommit<number, number>(async (items) => {
      calls.push([...items]);
      if (items.includes(2)) throw new Error('bad item 2');
      return items.map((i) => -i);
    });
    const results = await Promise.allSettled([1, 2, 3].map((i) => g.submit(i)));
    expect(results[0]).toEqual({ status: 'fulfilled', value: -1 });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: new Error('bad item 2') });
    expect(results[2]).toEqual({ status: 'fulfilled', value: -3 });
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('rejects every item when flush returns the wrong number of results', async () => {
    const g = new GroupCommit<number, number>(async () => []);
    await expect(g.submit(1)).rejects.toThrow(/0 results for 1/);
  });
});
