/** Exit codes of the `bookie` CLI. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/**
 * Runs a command action; a bad setting or bad input prints one line to stderr and exits 2; a refusal of the
 * database or the server (a held embedded database, an error answer of `--url`) prints one line and exits 1;
 * anything else prints the error and exits 1.
 */
export function action<A extends unknown[]>(
  fn: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      // the error types are loaded only when there is an error: `bookie <cmd> --help` stays light
      const [{ DomainError }, { DataDirLockedError }, { ConfigError }] = await Promise.all([
        import('@bookie/core'),
        import('@bookie/storage'),
        import('../platform/config.js'),
      ]);
      if (err instanceof ConfigError) {
        process.stderr.write(`error: ${err.message}\n`);
        process.exit(EXIT.usage);
      }
      if (err instanceof DomainError && (err.code === 'validation_error' || err.code === 'not_found')) {
        process.stderr.write(`error: ${err.message}\n`);
        process.exit(EXIT.usage);
      }
      if (err instanceof DataDirLockedError) {
        process.stderr.write(
          `error: the embedded database in ${err.dataDir} is in use by process ${err.pid} (a running bookie start?); ` +
            'only one process can open it: run this command through that server with --url http://HOST:PORT ' +
            '(and BOOKIE_ADMIN_TOKEN or --admin-token), or stop it first\n',
        );
        process.exit(EXIT.failure);
      }
      const sys = err as NodeJS.ErrnoException & { port?: number; address?: string };
      if (sys?.code === 'EADDRINUSE') {
        process.stderr.write(
          `error: port ${sys.port ?? '?'} on ${sys.address ?? 'this host'} is already in use (another bookie?); ` +
            'choose a free one with --port N (or PORT=N; 0 picks any), or stop what listens there\n',
        );
        process.exit(EXIT.failure);
      }
      if (err instanceof DomainError && err.code !== 'internal_error') {
        process.stderr.write(`error: ${err.message}\n`);
        process.exit(EXIT.failure);
      }
      process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(EXIT.failure);
    }
  };
}

/** Prints a value as pretty JSON on stdout (bigints as strings). */
export function printJson(value: unknown): void {
  process.stdout.write(
    `${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`,
  );
}
