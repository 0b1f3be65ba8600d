import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';

/** The authorization header of a bearer token (a partner's access token, a player session, the admin token). */
export const bearer = (token: string): { authorization: string } => ({ authorization: `Bearer ${token}` });

/**
 * Sends a request to the app in process, with `body` as JSON when given (and its content type), and the headers
 * given (an authorization, an operator, a cookie; they win over the content type). Answers the raw response; tests read status and body from it.
 * Not used in production paths.
 */
export function injectJson(
  app: FastifyInstance,
  method: HTTPMethods,
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
}
