/**
 * Values remembered by a text key, at most `limit` of them: when full, the memory is emptied before the next value
 * is kept. For values derived from a few distinct texts on hot paths (a white label's limits, EUR rates, feed odd
 * values, an allowlist's verdict per address), so each text is parsed or checked once while it keeps coming back.
 * Keep a value only once it was computed without an error: a text that fails is then computed (and fails) again.
 */
export class BoundedMemo<V> {
  private readonly values = new Map<string, V>();

  /** @param limit - how many values are kept before the memory is emptied (≥ 1). */
  constructor(private readonly limit: number) {}

  /** The value kept for `key`, or undefined. */
  get(key: string): V | undefined {
    return this.values.get(key);
  }

  /** Keeps `value` for `key` (emptying the memory first when it holds `limit` values) and returns it. */
  keep(key: string, value: V): V {
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(key, value);
    return value;
  }
}
