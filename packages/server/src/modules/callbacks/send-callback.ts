import { BoundedMemo } from '@bookie/core';
import { Agent, type Dispatcher } from 'undici';

/** Where a white label receives callbacks, and how they are signed (DECISIONS D11). */
export interface CallbackTarget {
  /** The partner's callback server base URL, e.g. `https://wallet.example.com/callbacks`. */
  url: string;
  /** The signature headers for one attempt of `body` with request_id `id`; `{}` when signing is off. */
  sign(id: string, body: string): Record<string, string>;
  /** Optional callback paths Bookie has learnt this white label does not implement (the optional callbacks rule). */
  unsupportedPaths?: ReadonlySet<string>;
}

/** Resolves a white label's callback target (the tenancy module implements it). */
export interface CallbackTargets {
  get(whiteLabelId: string): Promise<CallbackTarget>;
}

/** One HTTP attempt's outcome. `ok` is any 2xx (D8); redirects and everything else are failures. */
export type AttemptResult =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string; body: string | null };

/** What is sent: the exact bytes stored in the outbox. */
export interface OutgoingCallback {
  requestId: string;
  path: string;
  body: string;
  foreignParams: string;
}

/** Keep-alive connections per partner origin when not told otherwise. */
export const DEFAULT_CONNECTIONS_PER_ORIGIN = 64;

/**
 * A sender for a dispatcher of `concurrency` deliveries in flight (and placement's calls): a connection per delivery
 * in flight, at least {@link DEFAULT_CONNECTIONS_PER_ORIGIN}. With fewer connections than deliveries in flight, the
 * HTTP client queues requests behind each other and the partner sees fewer callbacks at once than the dispatcher
 * sends (ADR 0055).
 */
export function callbackSender(opts: { timeoutMs: number; concurrency: number }): CallbackSender {
  return new CallbackSender({
    timeoutMs: opts.timeoutMs,
    connectionsPerOrigin: Math.max(DEFAULT_CONNECTIONS_PER_ORIGIN, opts.concurrency),
  });
}

/** Sends callbacks over HTTP with keep-alive connections per partner origin. */
export class CallbackSender {
  private readonly agent: Agent;

  constructor(
    private readonly opts: { timeoutMs: number; connectionsPerOrigin?: number } = { timeoutMs: 5000 },
  ) {
    this.agent = new Agent({
      connections: opts.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: 30_000,
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
    });
  }

  /** How long one attempt may take by default (ms): the longest a delivery holds its slot. */
  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  /** Told of every attempt's path and answer status (null: no answer), for metrics. */
  onAttempt: ((path: string, status: number | null) => void) | undefined;

  /** One attempt: POST `target.url + path` with the D7 headers and the target's D11 signature headers. */
  async send(
    target: CallbackTarget,
    cb: OutgoingCallback,
    timeoutMs = this.opts.timeoutMs,
  ): Promise<AttemptResult> {
    const result = await this.attempt(target, cb, timeoutMs);
    this.onAttempt?.(cb.path, result.status);
    return result;
  }

  private attempt(target: CallbackTarget, cb: OutgoingCallback, timeoutMs: number): Promise<AttemptResult> {
    let where: { origin: string; path: string };
    try {
      where = this.whereOf(target.url, cb.path);
    } catch (err) {
      // a callback URL that does not parse: the attempt fails, as a network error would
      return Promise.resolve({ ok: false, status: null, error: describe(err), body: null });
    }
    // the D7 headers, then the target's D11 signature headers, in this order on the wire
    const headers = ['content-type', 'application/json', 'accept', '*/*', 'foreign-params', cb.foreignParams];
    const signature = target.sign(cb.requestId, cb.body);
    for (const name in signature) headers.push(name, signature[name] as string);
    return new Promise<AttemptResult>((resolve) => {
      const attempt = new Attempt(resolve);
      // the attempt's deadline, answer and body included; its timer is cleared as soon as the attempt ends
      attempt.timer = setTimeout(timeOut, timeoutMs, attempt);
      this.agent.dispatch(
        {
          origin: where.origin,
          path: where.path,
          method: 'POST',
          headers,
          body: Buffer.from(cb.body),
        },
        attempt,
      );
    });
  }

  /** The origin and request path of `base + path`, as a URL parser gives them; kept per URL (a handful per target). */
  private whereOf(base: string, path: string): { origin: string; path: string } {
    const url = joinUrl(base, path);
    const where = this.urls.get(url);
    if (where) return where;
    const parsed = new URL(url);
    return this.urls.keep(url, { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` });
  }

  private readonly urls = new BoundedMemo<{ origin: string; path: string }>(1024);

  /** Closes idle connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

/**
 * One attempt as the HTTP client's handler: it keeps the status and, of an answer that is not 2xx, the body (a 2xx
 * answer's body is read and dropped), and resolves once, at the answer's end, an error or its deadline. No stream,
 * abort signal or header object is made per attempt.
 */
class Attempt implements Dispatcher.DispatchHandler {
  timer: ReturnType<typeof setTimeout> | undefined;
  private status = 0;
  private chunks: Buffer[] | undefined;
  private abort: ((err: Error) => void) | undefined;
  private reason: Error | undefined;
  private done = false;

  constructor(private readonly resolve: (r: AttemptResult) => void) {}

  onConnect(abort: (err?: Error) => void): void {
    if (this.reason) abort(this.reason);
    else this.abort = abort;
  }

  onHeaders(statusCode: number): boolean {
    // informational answers (1xx) precede the final one
    if (statusCode >= 200) {
      this.status = statusCode;
      if (statusCode >= 300) this.chunks = [];
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks?.push(chunk);
    return true;
  }

  onComplete(): void {
    const status = this.status;
    if (status >= 200 && status < 300) {
      this.finish({ ok: true, status });
      return;
    }
    const text = Buffer.concat(this.chunks ?? []).toString();
    this.finish({ ok: false, status, error: `HTTP ${status}: ${text.slice(0, 500)}`, body: text });
  }

  onError(err: Error): void {
    this.failed(err);
  }

  /** The deadline passed: the attempt ends now, and the request is aborted (before it is written, if still queued). */
  timedOut(): void {
    const reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    this.reason = reason;
    this.failed(reason);
    this.abort?.(reason);
  }

  /** Before an answer's head, a failure with no status; after it, the answer counts with the body read so far dropped. */
  private failed(err: Error): void {
    const status = this.status;
    if (status === 0) this.finish({ ok: false, status: null, error: describe(err), body: null });
    else if (status < 300) this.finish({ ok: true, status });
    else this.finish({ ok: false, status, error: `HTTP ${status}: `, body: '' });
  }

  private finish(result: AttemptResult): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.chunks = undefined;
    this.resolve(result);
  }
}

function timeOut(attempt: Attempt): void {
  attempt.timedOut();
}

function joinUrl(base: string, path: string): string {
  return base.endsWith('/') ? base.slice(0, -1) + path : base + path;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: string }).code;
    return code ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
