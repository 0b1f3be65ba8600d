import type { IncomingHttpHeaders } from 'node:http';
import type { CallbackHandler } from './handler.js';

/** The part of a Fastify request the plugin uses (structural: the SDK does not depend on Fastify). */
export interface FastifyLikeRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** The part of a Fastify reply the plugin uses. */
export interface FastifyLikeReply {
  code(status: number): FastifyLikeReply;
  header(name: string, value: string): FastifyLikeReply;
  send(payload?: string | Buffer): FastifyLikeReply;
}

/** The part of a Fastify instance the plugin uses. */
export interface FastifyLikeInstance {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer'; bodyLimit?: number },
    parser: (req: unknown, body: Buffer, done: (err: Error | null, body?: unknown) => void) => void,
  ): void;
  post(
    path: string,
    handler: (req: FastifyLikeRequest, reply: FastifyLikeReply) => Promise<unknown>,
  ): unknown;
}

/** Options of {@link fastifyCallbackPlugin}. */
export interface FastifyCallbackPluginOptions {
  /** Largest body accepted, in bytes (default Fastify's bodyLimit). */
  bodyLimit?: number;
}

/**
 * A Fastify plugin serving the callbacks: `await app.register(fastifyCallbackPlugin(handler))` (register it without a
 * `prefix`; put the prefix in the handler's `basePath`). Inside its own encapsulated context it replaces the body
 * parsers with one that keeps the raw bytes, which the signature (the callback signing rule) and the fingerprint need; the rest
 * of the app keeps its parsers.
 */
export function fastifyCallbackPlugin(
  handler: CallbackHandler,
  options: FastifyCallbackPluginOptions = {},
): (app: FastifyLikeInstance) => Promise<void> {
  return async (app) => {
    app.removeAllContentTypeParsers();
    const parserOptions = options.bodyLimit
      ? { parseAs: 'buffer' as const, bodyLimit: options.bodyLimit }
      : {
          parseAs: 'buffer' as const,
        };
    const keepBytes = (_req: unknown, body: Buffer, done: (err: Error | null, body?: unknown) => void) =>
      done(null, body);
    // JSON, which callbacks are, by its exact type too: Fastify caches the parser of a type matched exactly, while it
    // parses the content type of every request that only the catch-all matches
    app.addContentTypeParser('application/json', parserOptions, keepBytes);
    app.addContentTypeParser('*', parserOptions, keepBytes);
    for (const path of handler.paths) {
      app.post(path, async (req, reply) => {
        const body = Buffer.isBuffer(req.body) ? req.body : typeof req.body === 'string' ? req.body : '';
        const response = await handler.handle({
          method: req.method,
          path: req.url,
          headers: req.headers,
          body,
        });
        reply.code(response.status);
        const headers = response.headers;
        for (const k of Object.keys(headers)) reply.header(k, headers[k]!);
        // a Buffer is sent as is: Fastify would otherwise append a charset to the stored content type
        return reply.send(response.body ? Buffer.from(response.body) : undefined);
      });
    }
  };
}
