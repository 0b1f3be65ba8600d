/** Orders object keys the way jsonb stores them: shorter first, then by their UTF-8 bytes. */
function jsonbKeyOrder(a: string, b: string): number {
  const la = Buffer.byteLength(a);
  const lb = Buffer.byteLength(b);
  if (la !== lb) return la - lb;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * A JSON value with every object's keys in the order jsonb keeps them, so an answer built in memory reads as the
 * same answer read back from a jsonb column does (a repeated request answers the same bytes).
 */
export function inJsonbKeyOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => inJsonbKeyOrder(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort(jsonbKeyOrder)) {
    const v = o[k];
    if (v !== undefined) out[k] = inJsonbKeyOrder(v);
  }
  return out as T;
}
