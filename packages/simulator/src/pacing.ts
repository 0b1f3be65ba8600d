/** Waiting for the replay's clock, and running work with bounded concurrency. */
import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms`, or rejects with the abort reason as soon as `signal` aborts. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  delay(ms, undefined, signal ? { signal } : {}).catch((err: unknown) => {
    throw signal?.aborted ? signal.reason : err;
  });

/** Runs `fn` over `items`, at most `limit` at a time. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T);
      }
    }),
  );
  return out;
}
