import type { FastifyBaseLogger, FastifyLogFn as LogFn } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/**
 * A request's logger made only when the request logs: Fastify makes a child of the server's logger for every request
 * (its request id bound), and a pino child serialises its bindings as it is made — work every request paid for,
 * although a request that goes well logs nothing when request logging is off. This one holds the parent and the
 * bindings, and makes the child at its first use (a log call, its level, a child of its own); from then on it is
 * that child. What is logged is what the child would log.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The request's child logger, made at the first call. */
  real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.real().level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

// the log methods on the prototype (none made per request): each forwards to the child, made at the first call
for (const method of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const) {
  Object.defineProperty(LazyRequestLogger.prototype, method, {
    value(this: { real(): FastifyBaseLogger }, ...args: unknown[]): void {
      (this.real()[method] as (...a: unknown[]) => void)(...args);
    },
    writable: true,
    configurable: true,
  });
}

/**
 * Fastify's `childLoggerFactory` making each request's logger lazily ({@link LazyRequestLogger}): the same child as
 * Fastify's default factory (`logger.child(bindings, opts)`), made when the request first logs.
 */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options);
}
