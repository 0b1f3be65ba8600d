import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackHandler } from './handler.js';
import { type AdapterOptions, readBody, TOO_LARGE, writeCallbackResponse } from './node-adapter.js';

/**
 * The part of an Express request the adapter uses (structural: the SDK does not depend on Express). `req.url` is
 * relative to the mount point, as Express sets it.
 */
export type ExpressLikeRequest = IncomingMessage & {
  /** Set by a body parser: a Buffer (`express.raw()`), a string (`express.text()`) or parsed JSON. */
  body?: unknown;
  /** The raw bytes, when a JSON parser kept them (`express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })`). */
  rawBody?: Buffer | string;
  /** Set by body-parser once it has consumed the stream. */
  _body?: boolean;
};

/** The part of an Express response the adapter uses: Node's `ServerResponse`, which Express's response extends. */
export type ExpressLikeResponse = ServerResponse;

/** Express's `next`. */
export type ExpressNext = (err?: unknown) => void;

function rawOf(req: ExpressLikeRequest): Buffer | string | undefined {
  if (Buffer.isBuffer(req.body) || typeof req.body === 'string') return req.body;
  if (req.rawBody !== undefined) return req.rawBody;
  return undefined;
}

/**
 * Express middleware serving the callbacks: `app.use(expressCallbackMiddleware(handler))`. Requests whose path is
 * not a callback path go to `next()`.
 *
 * The signature (the callback signing rule) and the idempotency fingerprint need the exact body bytes, so it takes them from, in
 * order: `req.body` when it is a Buffer or string (`express.raw({ type: '*\/*' })`), `req.rawBody` (kept by a JSON
 * parser's `verify`), or the request stream when no parser consumed it. A body parsed to JSON without its raw bytes
 * is re-serialised with `JSON.stringify`: workable with verification off, but a signature will then not match.
 */
export function expressCallbackMiddleware(
  handler: CallbackHandler,
  options: AdapterOptions = {},
): (req: ExpressLikeRequest, res: ExpressLikeResponse, next: ExpressNext) => void {
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  const paths = new Set(handler.paths);
  return (req, res, next) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!paths.has(path) && !paths.has(path.replace(/\/+$/, ''))) {
      next();
      return;
    }
    void (async () => {
      let body: Buffer | string | undefined = rawOf(req);
      if (body === undefined && !req._body && !req.readableEnded) {
        body = await readBody(req, limit);
        if (body === undefined) return writeCallbackResponse(res, TOO_LARGE);
      }
      if (body === undefined) body = req.body === undefined ? '' : JSON.stringify(req.body);
      const response = await handler.handle({
        method: req.method ?? 'GET',
        path,
        headers: req.headers,
        body,
      });
      writeCallbackResponse(res, response);
    })().catch(next);
  };
}
