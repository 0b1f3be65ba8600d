import type { IdempotencyOutcome, IdempotencyStore, StoredAnswer } from './idempotency.js';

type Entry =
  | { state: 'pending'; fingerprint: string; settled: Promise<void> }
  | { state: 'answered'; fingerprint: string; answer: StoredAnswer };

/**
 * An in-process {@link IdempotencyStore} (the callback requests rule): answers live in a `Map` for the life of the process (no
 * eviction). Good for tests and for partners whose effects are themselves in memory; a partner with a database should
 * use the SQL store so the effect and the stored answer commit together. `apply` gets `undefined` as its `tx`.
 */
export class MemoryIdempotencyStore implements IdempotencyStore<undefined> {
  readonly #entries = new Map<string, Entry>();

  /** Number of stored answers (pending claims excluded). */
  get size(): number {
    let n = 0;
    for (const e of this.#entries.values()) if (e.state === 'answered') n++;
    return n;
  }

  /** The stored answer of `key`, if any. */
  get(key: string): StoredAnswer | undefined {
    const e = this.#entries.get(key);
    return e?.state === 'answered' ? e.answer : undefined;
  }

  async execute(
    key: string,
    fingerprint: string,
    apply: (tx: undefined) => Promise<StoredAnswer>,
  ): Promise<IdempotencyOutcome> {
    for (;;) {
      const e = this.#entries.get(key);
      if (e?.state === 'pending') {
        await e.settled;
        continue;
      }
      if (e)
        return e.fingerprint === fingerprint ? { kind: 'replayed', answer: e.answer } : { kind: 'conflict' };
      let settle!: () => void;
      const settled = new Promise<void>((r) => {
        settle = r;
      });
      this.#entries.set(key, { state: 'pending', fingerprint, settled });
      try {
        const answer = await apply(undefined);
        this.#entries.set(key, { state: 'answered', fingerprint, answer });
        return { kind: 'applied', answer };
      } catch (err) {
        this.#entries.delete(key);
        throw err;
      } finally {
        settle();
      }
    }
  }
}
