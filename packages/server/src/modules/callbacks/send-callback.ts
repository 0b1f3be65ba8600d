import { Agent, type Dispatcher, request } from 'undici';

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

  private async attempt(
    target: CallbackTarget,
    cb: OutgoingCallback,
    timeoutMs: number,
  ): Promise<AttemptResult> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: '*/*',
      'foreign-params': cb.foreignParams,
      ...target.sign(cb.requestId, cb.body),
    };
    // the attempt's deadline, answer and body included; its timer is cleared as soon as the attempt ends (a signal
    // of AbortSignal.timeout would stay armed for the whole timeout and fire after every attempt, long answered)
    const deadline = new AbortController();
    const timer = setTimeout(abortAttempt, timeoutMs, deadline);
    try {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(joinUrl(target.url, cb.path), {
          method: 'POST',
          headers,
          body: cb.body,
          dispatcher: this.agent,
          signal: deadline.signal,
        });
      } catch (err) {
        return { ok: false, status: null, error: describe(err), body: null };
      }
      const text = await res.body.text().catch(() => '');
      if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, status: res.statusCode };
      return {
        ok: false,
        status: res.statusCode,
        error: `HTTP ${res.statusCode}: ${text.slice(0, 500)}`,
        body: text,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes idle connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** Ends an attempt that outlived its timeout, with the reason `AbortSignal.timeout` gives. */
function abortAttempt(deadline: AbortController): void {
  deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
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
