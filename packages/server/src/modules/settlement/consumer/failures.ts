/**
 * A failure that says nothing about the entry — the database unreachable, overloaded or shutting down, a
 * serialization failure or deadlock, a network error — is retried without end; only other failures (the entry's
 * data, a bug on its path) count towards quarantine (Postgres SQLSTATE classes 08, 40, 53, 57, 58).
 */
export function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string') return false;
  return (
    /^(08|40|53|57|58)/.test(code) || /^E(CONN|TIMEDOUT|PIPE|AI_AGAIN|HOSTUNREACH|NETUNREACH)/.test(code)
  );
}

/** Thrown at a batch boundary when the consumer is stopping: the entry is left for the next leader or start. */
export class StoppingError extends Error {
  constructor() {
    super('settlement: stopping');
    this.name = 'StoppingError';
  }
}
