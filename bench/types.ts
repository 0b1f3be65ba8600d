/** One benchmark result: a name and its measured numbers (units in the metric names, e.g. `ops_per_s`, `p99_ms`). */
export interface BenchResult {
  name: string;
  metrics: Record<string, number | string>;
  /** What the numbers mean, the baseline, the machine… */
  note?: string;
}

/** Runs `fn` repeatedly for about `ms` milliseconds; returns operations per second. */
export async function opsPerSecond(fn: () => unknown | Promise<unknown>, ms = 1000): Promise<number> {
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < ms) {
    await fn();
    n++;
  }
  return (n * 1000) / (performance.now() - start);
}
