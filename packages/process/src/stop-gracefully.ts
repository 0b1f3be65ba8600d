/**
 * The environment variable that makes {@link stopGracefully} also stop the process when its standard input closes:
 * {@link startListening} sets it and keeps a pipe to the child's stdin open, so a child whose parent died (a test
 * worker killed on a timeout, say) stops instead of running on as an orphan. Value `1`.
 */
export const EXIT_WITH_PARENT_ENV = 'BOOKIE_EXIT_WITH_PARENT';

/** The logger {@link stopGracefully} writes to (pino's shape). */
export interface StopLogger {
  info(obj: object, msg: string): void;
  error(obj: object | string, msg?: string): void;
}

/**
 * Stops a running service once: on SIGTERM or SIGINT — and, when `BOOKIE_EXIT_WITH_PARENT=1`, when stdin closes —
 * it calls `stop()` and exits 0 when it resolves, 1 when it rejects or takes longer than `timeoutMs`.
 *
 * @param options.stop closes the service (servers, background loops, database).
 * @param options.timeoutMs how long `stop()` may take, ms.
 */
export function stopGracefully(options: {
  log: StopLogger;
  stop: () => Promise<void>;
  timeoutMs: number;
}): void {
  const { log, stop, timeoutMs } = options;
  let stopping = false;
  const shutdown = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal: reason }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  if (process.env[EXIT_WITH_PARENT_ENV] === '1') {
    process.stdin.on('close', () => shutdown('parent gone'));
    process.stdin.on('error', () => shutdown('parent gone'));
    process.stdin.resume();
  }
}
