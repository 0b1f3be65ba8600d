import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CallbackBodies, CallbackName } from '@bookie/contracts';
import { type PreparedCallback, prepareCallback } from '@bookie/sdk/callbacks/fixtures';

/** A partner's answer to one callback, as the platform sees it. */
export interface CallbackAnswer {
  status: number;
  body: string;
  /** The `Location` header of a redirect (a failure: redirects are not followed, DECISIONS D8). */
  location?: string;
}

/** Where and how the partner check sends callbacks. */
export interface CallbackClientOptions {
  /** The partner's callback server, e.g. `https://partner.example/callbacks` (paths are appended). */
  callbackUrl: string;
  /** The white label's signing secret (`whsec_…`, DECISIONS D11); callbacks go unsigned without it. */
  secret?: string | undefined;
  /** The `Foreign-Params` header (DECISIONS D7). */
  foreignParams: Record<string, unknown>;
  /** How long one callback may take, in ms. */
  timeoutMs: number;
}

/**
 * Sends callbacks to a partner's callback server exactly as Bookie's outbox does (DECISIONS D7 headers, D11
 * signature, no redirects followed): a prepared callback keeps its bytes and `request_id`, so sending it again is a
 * duplicate delivery.
 */
export class CallbackClient {
  constructor(private readonly options: CallbackClientOptions) {}

  /**
   * Serialises and signs a callback body (any JSON: the check also sends bodies with fields left out or added), with
   * the check's `Foreign-Params` unless others are given.
   */
  prepare<K extends CallbackName>(
    name: K,
    body: CallbackBodies[K] | Record<string, unknown>,
    foreignParams: Record<string, unknown> = this.options.foreignParams,
  ): PreparedCallback {
    return prepareCallback(name, body as CallbackBodies[K], {
      ...(this.options.secret ? { secret: this.options.secret } : {}),
      foreignParams,
    });
  }

  #url(path: string): string {
    return `${this.options.callbackUrl.replace(/\/+$/, '')}${path}`;
  }

  /** POSTs a prepared callback and reads the answer. @throws Error on a network error or a timeout. */
  async send(p: PreparedCallback): Promise<CallbackAnswer> {
    const res = await fetch(this.#url(p.path), {
      method: 'POST',
      headers: p.headers,
      body: p.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const body = await res.text();
    const location = res.headers.get('location');
    return { status: res.status, body, ...(location ? { location } : {}) };
  }

  /**
   * Sends a prepared callback and drops the connection as soon as the request is written, without reading the
   * answer: what the platform sees when a callback times out. The partner may or may not have applied it.
   */
  sendAndAbandon(p: PreparedCallback): Promise<void> {
    const url = new URL(this.#url(p.path));
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      const req = request(url, {
        method: 'POST',
        headers: { ...p.headers, 'content-length': String(Buffer.byteLength(p.body)) },
      });
      req.on('error', () => resolve());
      req.on('finish', () => {
        req.destroy();
        resolve();
      });
      req.end(p.body);
    });
  }
}
