import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackHandler } from './handler.js';
import type { CallbackResponse } from './types.js';

/** Options of the Node http and Express adapters. */
export interface AdapterOptions {
  /** Largest body accepted, in bytes (default 1 MiB); a larger one gets 413. */
  maxBodyBytes?: number;
}

/** Reads a request body into one Buffer; resolves `undefined` when it exceeds `limit` bytes. */
export async function readBody(req: AsyncIterable<unknown>, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > limit) tooLarge = true;
    else chunks.push(b);
  }
  return tooLarge ? undefined : Buffer.concat(chunks);
}

/** Writes a {@link CallbackResponse} to a Node (or Express) response. */
export function writeCallbackResponse(res: ServerResponse, response: CallbackResponse): void {
  res.statusCode = response.status;
  for (const [k, v] of Object.entries(response.headers)) res.setHeader(k, v);
  if (response.body) res.setHeader('content-length', Buffer.byteLength(response.body));
  res.end(response.body);
}

/** The 413 answer for an oversized body. */
export const TOO_LARGE: CallbackResponse = {
  status: 413,
  headers: { 'content-type': 'application/json' },
  body: '{"error":{"code":"payload_too_large"}}',
};

/**
 * A `node:http` request listener serving the callbacks: `http.createServer(nodeCallbackListener(handler))`.
 * Requests to other paths get 404 (wrap it to serve more routes).
 */
export function nodeCallbackListener(
  handler: CallbackHandler,
  options: AdapterOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  return (req, res) => {
    void (async () => {
      const body = await readBody(req, limit);
      const response = body
        ? await handler.handle({
            method: req.method ?? 'GET',
            path: req.url ?? '/',
            headers: req.headers,
            body,
          })
        : TOO_LARGE;
      writeCallbackResponse(res, response);
    })().catch((err) => {
      res.destroy(err as Error);
    });
  };
}
