/**
 * The partner's generated REST client: every partner operation of Bookie's OpenAPI document, typed from it
 * (`bookie-api.ts`, made by `npm run generate:client` with openapi-typescript) and called through openapi-fetch.
 * On top: the OAuth 2.0 client credentials token, cached and refreshed before it expires (a 401 drops it and the
 * call is made once more with a new one), and retries by undici's `RetryAgent` (exponential backoff, honouring
 * `Retry-After`): of a 429 always, of a 5xx or a network error only where a repeat is harmless (repeat-policy.ts:
 * idempotent methods, and the `POST`s Bookie deduplicates — a creation without an `idempotence_id` gets a
 * generated one first, so its retry is the same request); any other `POST` is sent once.
 *
 * ```ts
 * const bookie = createPartnerClient({ baseUrl, clientId, clientSecret });
 * const { data, error } = await bookie.POST('/token/create', {
 *   body: { player_id: 'player-42', currency: 'EUR', locale: 'en' },
 * });
 * ```
 *
 * @packageDocumentation
 */
import type { OAuthTokenResponse } from '@bookie/contracts/tenancy';
import createClient, { type Client } from 'openapi-fetch';
import { Agent, type Dispatcher, RetryAgent, request as undiciRequest } from 'undici';
import type { components, operations, paths } from './bookie-api.js';
import { BookieApiError } from './errors.js';
import { IDEMPOTENT_METHODS, type RepeatRule, repeatRule, withIdempotenceIds } from './repeat-policy.js';
import { TokenCache } from './token-cache.js';

export type { components as BookieApiComponents, operations as BookieApiOperations, paths as BookieApiPaths };

/** Retries of {@link createPartnerClient}, as undici's `RetryAgent` takes them. */
export interface PartnerRetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff wait in ms (default 200); each next one `timeoutFactor` times longer. */
  minTimeout?: number;
  /** Longest backoff wait in ms (default 5000). */
  maxTimeout?: number;
  /** Backoff growth (default 2). */
  timeoutFactor?: number;
  /** Statuses retried (default 429, 500, 502, 503, 504); a `Retry-After` is honoured. */
  statusCodes?: number[];
}

/** Options of {@link createPartnerClient}. */
export interface PartnerClientOptions {
  /** Bookie's base URL, e.g. `https://bookie.example.com`. */
  baseUrl: string;
  /** OAuth client id of the white label. */
  clientId: string;
  /** OAuth client secret. */
  clientSecret: string;
  /** Retry settings (see {@link PartnerRetryOptions}). */
  retry?: PartnerRetryOptions;
  /** Refresh a token this many seconds before it expires (default 60, at most half its lifetime). */
  refreshMarginSeconds?: number;
  /** The undici dispatcher the retries wrap (default a new `Agent`). */
  dispatcher?: Dispatcher;
  /** Extra headers on every request (e.g. `user-agent`). */
  headers?: Record<string, string>;
  /** Clock in unix ms (default `Date.now`). */
  now?: () => number;
  /** Per-attempt timeout in ms for headers and body (default undici's, 300000). */
  timeoutMs?: number;
}

/** The generated client: `GET`, `POST`… on every partner path, typed, plus the current access token. */
export interface PartnerClient extends Client<paths> {
  /** A valid access token (cached, or fetched), e.g. for the feed's streaming routes. */
  accessToken(): Promise<string>;
  /** Closes the client's connections. */
  close(): Promise<void>;
}

/** The default retried statuses: rate limited and temporary server failures. */
export const RETRIED_STATUSES = [429, 500, 502, 503, 504];

/** Options of {@link retryingFetch}. */
export interface RetryingFetchOptions {
  /** The undici dispatcher the retries wrap (default a new `Agent`). */
  dispatcher?: Dispatcher;
  /** Retry settings (see {@link PartnerRetryOptions}). */
  retry?: PartnerRetryOptions;
  /**
   * Whether a request may be sent again after a 5xx or a lost connection (see repeat-policy.ts); default: its method
   * is idempotent (`GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`). A request it refuses is retried on a 429 only.
   */
  repeatable?: (request: RequestInfo | URL, method: string) => boolean;
  /** Per-attempt timeout in ms for headers and body (default undici's, 300000). */
  timeoutMs?: number;
}

/**
 * A `fetch` that sends through undici's `RetryAgent`: the body is read whole first, so that a retry sends the same
 * bytes. A request `repeatable` allows is retried on 429, the other retried statuses and network errors; any other
 * on a 429 only (Bookie refused it before processing it), so a `POST` that is not safe to repeat is sent once.
 */
export function retryingFetch(options: RetryingFetchOptions = {}) {
  const r = options.retry ?? {};
  const inner = options.dispatcher ?? new Agent();
  const common = {
    maxRetries: r.maxRetries ?? 3,
    minTimeout: r.minTimeout ?? 200,
    maxTimeout: r.maxTimeout ?? 5000,
    timeoutFactor: r.timeoutFactor ?? 2,
    methods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'POST', 'PATCH'] as Dispatcher.HttpMethod[],
    // after the last retry, the last answer (its status and error body), not an exception
    throwOnError: false,
  };
  const retrying = new RetryAgent(inner, { ...common, statusCodes: r.statusCodes ?? RETRIED_STATUSES });
  const rateLimitedOnly = new RetryAgent(inner, { ...common, statusCodes: [429], errorCodes: [] });
  const repeatable =
    options.repeatable ??
    ((_: RequestInfo | URL, method: string) => IDEMPOTENT_METHODS.has(method.toUpperCase()));
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const sent: Record<string, string> = {};
    req.headers.forEach((v, k) => {
      sent[k] = v;
    });
    const res = await undiciRequest(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: sent,
      body,
      ...(options.timeoutMs === undefined
        ? {}
        : { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs }),
      dispatcher: repeatable(input, req.method) ? retrying : rateLimitedOnly,
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined) headers.append(k, one);
    }
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const empty = res.statusCode === 204 || res.statusCode === 304 || req.method === 'HEAD';
    return new Response(empty ? null : bytes, { status: res.statusCode, headers });
  };
  return {
    fetch: fetch as typeof globalThis.fetch,
    close: async () => {
      await Promise.all([retrying.close(), rateLimitedOnly.close()]);
    },
  };
}

/** The request with an `idempotence_id` filled in where its operation takes one and the caller gave none. */
async function withIdempotenceIdsIn(request: Request, rule: RepeatRule): Promise<Request> {
  const text = await request.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return request; // not JSON: sent as it is, for Bookie to refuse
  }
  const filled = withIdempotenceIds(body, rule);
  return filled === body ? request : new Request(request, { body: JSON.stringify(filled) });
}

/**
 * Builds the generated partner client (see the module comment). Errors come back as openapi-fetch returns them
 * (`{ error, response }`, the error the Bookie error body); the token fetch throws.
 *
 * @throws BookieApiError from a call when no access token can be had (`/oauth/token` refused or unreachable).
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  // the requests safe to send again (repeat-policy.ts): marked as they are built, since the rule is the operation's
  const repeatable = new WeakSet<Request>();
  const { fetch, close } = retryingFetch({
    ...options,
    repeatable: (input, method) =>
      IDEMPOTENT_METHODS.has(method.toUpperCase()) || (input instanceof Request && repeatable.has(input)),
  });
  const now = options.now ?? Date.now;

  const tokens = new TokenCache(
    async () => {
      const enc = (s: string) => encodeURIComponent(s);
      const basic = Buffer.from(`${enc(options.clientId)}:${enc(options.clientSecret)}`).toString('base64');
      let res: Response;
      try {
        const request = new Request(`${base}/oauth/token`, {
          method: 'POST',
          headers: {
            ...options.headers,
            authorization: `Basic ${basic}`,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: 'grant_type=client_credentials',
        });
        repeatable.add(request);
        res = await fetch(request);
      } catch (e) {
        throw new BookieApiError(0, 'network_error', `POST /oauth/token: ${(e as Error).message}`);
      }
      const text = await res.text();
      if (res.status !== 200) throw BookieApiError.fromResponse(res.status, text);
      const parsed = JSON.parse(text) as OAuthTokenResponse;
      if (typeof parsed.access_token !== 'string' || typeof parsed.expires_in !== 'number') {
        throw new BookieApiError(
          res.status,
          'invalid_token_response',
          'malformed /oauth/token answer',
          {},
          text,
        );
      }
      return parsed;
    },
    now,
    options.refreshMarginSeconds ?? 60,
  );

  const copies = new WeakMap<Request, Request>();
  const client = createClient<paths>({
    baseUrl: base,
    fetch,
    headers: options.headers,
  });
  client.use({
    async onRequest({ request: built, schemaPath }) {
      const rule = repeatRule(built.method, schemaPath);
      const request = rule.startsWith('idempotence_id') ? await withIdempotenceIdsIn(built, rule) : built;
      if (rule !== 'never') repeatable.add(request);
      // OAuth's own route authenticates with the client credentials, never with a token
      if (new URL(request.url).pathname.endsWith('/oauth/token')) return request;
      request.headers.set('authorization', `Bearer ${await tokens.get()}`);
      const copy = request.clone();
      if (rule !== 'never') repeatable.add(copy);
      copies.set(request, copy);
      return request;
    },
    async onResponse({ request, response }) {
      const copy = copies.get(request);
      if (response.status !== 401 || !copy) return undefined;
      // the token was refused (revoked, expired early): once more with a new one
      tokens.invalidate(copy.headers.get('authorization')?.slice('Bearer '.length));
      copy.headers.set('authorization', `Bearer ${await tokens.get()}`);
      return fetch(copy);
    },
  });
  return Object.assign(client, { accessToken: () => tokens.get(), close });
}
