/**
 * The REST client a partner's backend uses to call Bookie (the callback contract, "Authentication", the player sessions rule, the partner tokens rule): OAuth 2.0
 * client credentials with token caching and refresh, typed methods for Bookie's partner routes, and retries by
 * undici's own `RetryAgent` (exponential backoff): of a 429 (honouring `Retry-After`) on every route, of a 5xx or a
 * network error only on a route safe to repeat (repeat-policy.ts; a creation without an `idempotence_id` gets a
 * generated one first).
 *
 * @packageDocumentation
 */

import type {
  BetBoostView,
  BulkCreateFreebetsBody,
  BulkCreateFreebetsResponse,
  CreateBetBoostBody,
  CreateFreebetBody,
  CreateInsuranceBody,
  FreebetView,
  InsuranceView,
} from '@bookie/contracts/bonuses';
import type {
  BetReport,
  DailyReport,
  Dictionary,
  DictionaryLocale,
  DictionaryName,
  PartnerBet,
  PartnerBetPage,
  PartnerBetQuery,
} from '@bookie/contracts/partner-rest';
import type { CreateSessionBody, OAuthTokenResponse } from '@bookie/contracts/tenancy';
import { Agent, type Dispatcher, RetryAgent, request } from 'undici';
import { BookieApiError } from './errors.js';
import { type PartnerRetryOptions, RETRIED_STATUSES } from './partner-client.js';
import { withIdempotenceIds } from './repeat-policy.js';
import { TokenCache } from './token-cache.js';

/** Options of {@link BookieClient}. */
export interface BookieClientOptions {
  /** Bookie's REST base URL, e.g. `https://bookie.example.com` ({base_url} of the callback contract). */
  baseUrl: string;
  /** OAuth client id of the white label (the partner tokens rule). */
  clientId: string;
  /** OAuth client secret. */
  clientSecret: string;
  /**
   * Retries, as undici's `RetryAgent` takes them (see {@link PartnerRetryOptions}; default 3 retries, waits from
   * 200 ms doubling up to 5 s, a `Retry-After` honoured up to that cap).
   */
  retry?: PartnerRetryOptions;
  /** Refresh a token this many seconds before it expires (default 60, at most half its lifetime). */
  refreshMarginSeconds?: number;
  /** Per-attempt timeout in ms for headers and body (default 10000). */
  timeoutMs?: number;
  /** The undici dispatcher the retries wrap (Agent, Pool, MockAgent…); default a new `Agent`. */
  dispatcher?: Dispatcher;
  /** Clock in unix ms (default `Date.now`). */
  now?: () => number;
  /** Extra headers on every request (e.g. `user-agent`). */
  headers?: Record<string, string>;
}

/**
 * A route of Bookie's partner API. `retryable`: whether a 5xx or a network error may be retried (true when
 * repeating the call is harmless, as repeat-policy.ts decides: idempotent methods and the `POST`s Bookie
 * deduplicates); a 429 is always retried, since the server did not process the request.
 */
export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  retryable: boolean;
  /**
   * Where the route's body takes an `idempotence_id`: `body` (the body itself) or `items` (each of its `items`).
   * The client fills in a `crypto.randomUUID()` where the caller gave none, once per call, so a retry is the same
   * request and Bookie answers it with the first outcome.
   */
  idempotenceId?: 'body' | 'items';
}

/**
 * The partner routes the client knows. To add one: an entry here, and a one-line method on {@link BookieClient}
 * calling `this.call<Answer>(ROUTES.name, { body })`.
 */
export const ROUTES = {
  /**
   * `POST /token/create` (the player sessions rule): a player session token for the betting frame. Not retried on a
   * 5xx or a lost connection (a repeat would make a second session).
   */
  createPlayerToken: { method: 'POST', path: '/token/create', retryable: false },
  /** `POST /token/expire`: ends a player session token (idempotent). */
  expirePlayerToken: { method: 'POST', path: '/token/expire', retryable: true },
  /** `GET /white-label`: the calling white label, without secrets. */
  getWhiteLabel: { method: 'GET', path: '/white-label', retryable: true },
  /** `GET /dictionaries/{name}` (the environments and tools rule): reference data with names per locale. */
  getDictionary: { method: 'GET', path: '/dictionaries/{name}', retryable: true },
  /** `GET /bets` (the environments and tools rule): the white label's bets, filtered, newest first, cursor paging. */
  listBets: { method: 'GET', path: '/bets', retryable: true },
  /** `GET /bets/{bet_id}` (the partner-reported bets rule, the environments and tools rule): one bet in the shape (see "partner-reported bets" in docs/decisions.md). */
  getBet: { method: 'GET', path: '/bets/{bet_id}', retryable: true },
  /** `POST /bets/{bet_id}/cancel` (the environments and tools rule): stake back, status 5. Not retried (answer 409 on a repeat). */
  cancelBet: { method: 'POST', path: '/bets/{bet_id}/cancel', retryable: false },
  /** `POST /bets/{bet_id}/void` (the environments and tools rule): stake back, status 6. Not retried (answer 409 on a repeat). */
  voidBet: { method: 'POST', path: '/bets/{bet_id}/void', retryable: false },
  /** `GET /reports/bets` (the environments and tools rule): every bet placed in a window. */
  getBetReport: { method: 'GET', path: '/reports/bets', retryable: true },
  /** `GET /reports/daily` (the environments and tools rule): sums per day and currency. */
  getDailyReport: { method: 'GET', path: '/reports/daily', retryable: true },
  /** `POST /freebet/create`: a freebet for a player; retried under its `idempotence_id` (generated when absent). */
  createFreebet: { method: 'POST', path: '/freebet/create', retryable: true, idempotenceId: 'body' },
  /** `POST /freebet/create/bulk`: freebets for many players; each item keyed by its `idempotence_id`. */
  createFreebets: { method: 'POST', path: '/freebet/create/bulk', retryable: true, idempotenceId: 'items' },
  /** `POST /insurance/create`: a bet insurance for a player; retried under its `idempotence_id`. */
  createInsurance: { method: 'POST', path: '/insurance/create', retryable: true, idempotenceId: 'body' },
  /** `POST /bet-boosts`: a bet boost; retried under its `idempotence_id`. */
  createBetBoost: { method: 'POST', path: '/bet-boosts', retryable: true, idempotenceId: 'body' },
} as const satisfies Record<string, RouteSpec>;

/** Input of one {@link BookieClient.call}. */
export interface CallOptions {
  /** JSON body. */
  body?: unknown;
  /** Query parameters. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Path parameters, substituted for `{name}` in the route path. */
  params?: Record<string, string>;
  /** Answer the body as text (e.g. CSV) instead of parsing JSON. */
  text?: boolean;
}

/** Answer of `POST /bets/{bet_id}/cancel` and `…/void` (the environments and tools rule). */
export interface PartnerBetActionAnswer {
  /** `settled`: the stake goes back in a `/bet/settle` callback. */
  transition: string;
  /** Callbacks enqueued. */
  callbacks: number;
  /** The bet after the action. */
  bet: PartnerBet;
}

/** Answer of `POST /token/create` (the player sessions rule). */
export interface PlayerToken {
  /** The session token to hand to the betting frame. */
  token: string;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const METHODS: Dispatcher.HttpMethod[] = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'POST', 'PATCH'];

/**
 * Bookie's REST client for a partner backend. Every call carries a Bearer token from `POST /oauth/token` (HTTP Basic
 * client authentication, client credentials grant, the partner tokens rule), cached and refreshed before it expires; a 401
 * answer drops the token and the call is made once more with a new one. 429 answers are retried, 5xx answers and
 * network errors too on a {@link RouteSpec.retryable} route, by undici's `RetryAgent` (exponential backoff,
 * `Retry-After` honoured); after the last retry the last answer is mapped as any other.
 *
 * @throws BookieApiError from every method when Bookie answers an error (after the retries).
 */
export class BookieClient {
  readonly #opts: BookieClientOptions;
  readonly #base: string;
  /** Retries 429, 5xx and network errors (routes safe to repeat). */
  readonly #retrying: RetryAgent;
  /** Retries 429 only: the server did not process the request (routes not safe to repeat). */
  readonly #rateLimitedOnly: RetryAgent;
  readonly #tokens: TokenCache;

  constructor(options: BookieClientOptions) {
    this.#opts = options;
    this.#base = options.baseUrl.replace(/\/+$/, '');
    const r = options.retry ?? {};
    // an Agent of this undici: the process's global dispatcher may be Node's own (set by its fetch), whose handler
    // interface the RetryAgent of this undici cannot drive
    const inner = options.dispatcher ?? new Agent();
    const common = {
      maxRetries: r.maxRetries ?? 3,
      minTimeout: r.minTimeout ?? 200,
      maxTimeout: r.maxTimeout ?? 5000,
      timeoutFactor: r.timeoutFactor ?? 2,
      methods: METHODS,
      // after the last retry, the last answer (its status and error body), not an exception
      throwOnError: false,
    };
    this.#retrying = new RetryAgent(inner, { ...common, statusCodes: r.statusCodes ?? RETRIED_STATUSES });
    this.#rateLimitedOnly = new RetryAgent(inner, { ...common, statusCodes: [429], errorCodes: [] });
    this.#tokens = new TokenCache(
      () => this.#fetchToken(),
      options.now ?? Date.now,
      options.refreshMarginSeconds ?? 60,
    );
  }

  /** `POST /token/create` (the player sessions rule): a session token for `player_id` (`""` for a read-only viewer). */
  createPlayerToken(body: CreateSessionBody): Promise<PlayerToken> {
    return this.call<PlayerToken>(ROUTES.createPlayerToken, { body });
  }

  /** `POST /token/expire`: ends a player session token. */
  async expirePlayerToken(token: string): Promise<void> {
    await this.call(ROUTES.expirePlayerToken, { body: { token } });
  }

  /** `GET /white-label`: the calling white label as its partner sees it. */
  getWhiteLabel(): Promise<Record<string, unknown>> {
    return this.call<Record<string, unknown>>(ROUTES.getWhiteLabel);
  }

  /** `GET /dictionaries/{name}?locale=` (the environments and tools rule): sports, tournaments, market types, restriction types… */
  getDictionary(name: DictionaryName, locale?: DictionaryLocale): Promise<Dictionary> {
    return this.call<Dictionary>(ROUTES.getDictionary, { params: { name }, query: { locale } });
  }

  /** `GET /bets` (the environments and tools rule): one page of the white label's bets; pass `next` as `cursor` for the next. */
  listBets(query: PartnerBetQuery = {}): Promise<PartnerBetPage> {
    return this.call<PartnerBetPage>(ROUTES.listBets, { query });
  }

  /** `GET /bets/{bet_id}` (the partner-reported bets rule, the environments and tools rule). @throws BookieApiError 404 for a bet of another white label. */
  getBet(betId: string): Promise<PartnerBet> {
    return this.call<PartnerBet>(ROUTES.getBet, { params: { bet_id: betId } });
  }

  /** `POST /bets/{bet_id}/cancel` (the environments and tools rule): before settlement; @throws BookieApiError 409 once settled. */
  cancelBet(betId: string, reason: string): Promise<PartnerBetActionAnswer> {
    return this.call<PartnerBetActionAnswer>(ROUTES.cancelBet, {
      params: { bet_id: betId },
      body: { reason },
    });
  }

  /** `POST /bets/{bet_id}/void` (the environments and tools rule): before settlement; @throws BookieApiError 409 once settled. */
  voidBet(betId: string, reason: string): Promise<PartnerBetActionAnswer> {
    return this.call<PartnerBetActionAnswer>(ROUTES.voidBet, { params: { bet_id: betId }, body: { reason } });
  }

  /** `GET /reports/bets` (the environments and tools rule) as JSON; `from`/`to` ISO 8601, [from, to), at most 92 days. */
  getBetReport(window: { from: string; to: string }): Promise<BetReport> {
    return this.call<BetReport>(ROUTES.getBetReport, { query: window });
  }

  /** `GET /reports/daily` (the environments and tools rule) as JSON. */
  getDailyReport(window: { from: string; to: string }): Promise<DailyReport> {
    return this.call<DailyReport>(ROUTES.getDailyReport, { query: window });
  }

  /**
   * `POST /freebet/create`: gives a player a freebet. Without `idempotence_id` the client makes one, so a retry
   * after a 5xx or a lost connection creates it once; pass your own to make repeats across calls safe too.
   *
   * @returns the freebet (Bookie answers 201 for a new one, 200 with the same one for a repeated `idempotence_id`).
   * @throws BookieApiError 400 naming the invalid field.
   */
  createFreebet(body: CreateFreebetBody): Promise<FreebetView> {
    return this.call<FreebetView>(ROUTES.createFreebet, { body });
  }

  /**
   * `POST /freebet/create/bulk`: freebets for many players, each item answered on its own, in order; an item
   * without `idempotence_id` gets a generated one (see {@link createFreebet}).
   */
  createFreebets(body: BulkCreateFreebetsBody): Promise<BulkCreateFreebetsResponse> {
    return this.call<BulkCreateFreebetsResponse>(ROUTES.createFreebets, { body });
  }

  /**
   * `POST /insurance/create`: gives a player a bet insurance; `idempotence_id` as for {@link createFreebet}.
   *
   * @throws BookieApiError 400 naming the invalid field.
   */
  createInsurance(body: CreateInsuranceBody): Promise<InsuranceView> {
    return this.call<InsuranceView>(ROUTES.createInsurance, { body });
  }

  /**
   * `POST /bet-boosts`: creates a bet boost; `idempotence_id` as for {@link createFreebet}.
   *
   * @throws BookieApiError 400 naming the invalid field.
   */
  createBetBoost(body: CreateBetBoostBody): Promise<BetBoostView> {
    return this.call<BetBoostView>(ROUTES.createBetBoost, { body });
  }

  /** A report as CSV text (RFC 4180, header line): `bets` or `daily`. */
  getReportCsv(report: 'bets' | 'daily', window: { from: string; to: string }): Promise<string> {
    const route = report === 'bets' ? ROUTES.getBetReport : ROUTES.getDailyReport;
    return this.call<string>(route, { query: { ...window, format: 'csv' }, text: true });
  }

  /** A current access token (fetched or cached), e.g. to call a route the client does not know yet. */
  accessToken(): Promise<string> {
    return this.#tokens.get();
  }

  /**
   * Calls a route with the Bearer token, retries and error mapping; resolves to the parsed JSON answer (`undefined`
   * for an empty one, e.g. 204).
   */
  async call<T = unknown>(route: RouteSpec, options: CallOptions = {}): Promise<T> {
    let path = route.path.replace(/\{(\w+)\}/g, (_, k: string) =>
      encodeURIComponent(options.params?.[k] ?? ''),
    );
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) q.set(k, String(v));
    if ([...q].length) path += `?${q}`;
    const payload =
      route.idempotenceId === undefined
        ? options.body
        : withIdempotenceIds(
            options.body,
            route.idempotenceId === 'items' ? 'idempotence_id_items' : 'idempotence_id',
          );
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    let refreshed = false;
    for (;;) {
      const token = await this.#tokens.get();
      const headers: Record<string, string> = { ...this.#opts.headers, authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await this.#send(route.method, path, headers, body, route.retryable);
      if (res.status === 401 && !refreshed) {
        this.#tokens.invalidate(token);
        refreshed = true;
        continue;
      }
      if (res.status >= 400) throw BookieApiError.fromResponse(res.status, res.text);
      if (options.text) return res.text as T;
      return (res.text ? JSON.parse(res.text) : undefined) as T;
    }
  }

  async #fetchToken(): Promise<OAuthTokenResponse> {
    const enc = (s: string) => encodeURIComponent(s);
    const basic = Buffer.from(`${enc(this.#opts.clientId)}:${enc(this.#opts.clientSecret)}`).toString(
      'base64',
    );
    const res = await this.#send(
      'POST',
      '/oauth/token',
      {
        ...this.#opts.headers,
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      'grant_type=client_credentials',
      true,
    );
    if (res.status !== 200) throw BookieApiError.fromResponse(res.status, res.text);
    const parsed = JSON.parse(res.text) as OAuthTokenResponse;
    if (typeof parsed.access_token !== 'string' || typeof parsed.expires_in !== 'number') {
      throw new BookieApiError(
        res.status,
        'invalid_token_response',
        'malformed /oauth/token answer',
        {},
        res.text,
      );
    }
    return parsed;
  }

  /** One request through the retrying dispatcher: 429 always, 5xx and network errors when `retryable`. */
  async #send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
    retryable: boolean,
  ): Promise<RawAnswer> {
    const timeout = this.#opts.timeoutMs ?? 10_000;
    try {
      const res = await request(`${this.#base}${path}`, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        dispatcher: retryable ? this.#retrying : this.#rateLimitedOnly,
      });
      return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new BookieApiError(0, 'network_error', `${method} ${path}: ${msg}`);
    }
  }
}
