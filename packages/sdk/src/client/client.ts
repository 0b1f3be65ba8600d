/**
 * The typed helpers a partner's backend uses to call Bookie (the callback contract, "Authentication", the player
 * sessions rule, the partner tokens rule): one method per common partner route, each answering the parsed body or
 * throwing {@link BookieApiError}. A thin layer over the generated client ({@link createPartnerClient}), which does
 * the work: OAuth 2.0 client credentials with token caching and refresh, retries by undici's own `RetryAgent`
 * (exponential backoff) of a 429 (honouring `Retry-After`) on every route, of a 5xx or a network error only on a
 * route safe to repeat (repeat-policy.ts; a creation without an `idempotence_id` gets a generated one first).
 *
 * @packageDocumentation
 */

import type {
  BuilderCalculateAnswer,
  BuilderCalculateBody,
  BuilderSelectionsAnswer,
  BuilderSelectionsBody,
} from '@bookie/contracts/bet-builder';
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
  PartnerBetActionAnswer,
  PartnerBetPage,
  PartnerBetQuery,
} from '@bookie/contracts/partner-rest';
import type { CreateSessionBody } from '@bookie/contracts/tenancy';
import type { Dispatcher } from 'undici';
import { BookieApiError } from './errors.js';
import { createPartnerClient, type PartnerClient, type PartnerRetryOptions } from './partner-client.js';

/** What the generated client answers a call. */
interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

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
  /** `POST /bet-builder/selections`: the odds that can start or join a bet builder on an event (changes nothing). */
  builderSelections: { method: 'POST', path: '/bet-builder/selections', retryable: true },
  /** `POST /bet-builder/calculate`: a bet builder's combined odds and a signed quote (changes nothing). */
  calculateBuilder: { method: 'POST', path: '/bet-builder/calculate', retryable: true },
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

/** Answer of `POST /bets/{bet_id}/cancel` and `…/void` (the environments and tools rule): see the contract's schema. */
export type { PartnerBetActionAnswer } from '@bookie/contracts/partner-rest';

/** Answer of `POST /token/create` (the player sessions rule). */
export interface PlayerToken {
  /** The session token to hand to the betting frame. */
  token: string;
}

/**
 * Bookie's REST client for a partner backend, as typed helpers: each method one partner route, answering its parsed
 * body. Every call goes through the generated client ({@link createPartnerClient}, also at {@link BookieClient.api}):
 * a Bearer token from `POST /oauth/token` (HTTP Basic client authentication, client credentials grant, the partner
 * tokens rule), cached and refreshed before it expires; a 401 answer drops the token and the call is made once more
 * with a new one. 429 answers are retried, 5xx answers and network errors too on a route safe to repeat, by undici's
 * `RetryAgent` (exponential backoff, `Retry-After` honoured); after the last retry the last answer is mapped as any
 * other.
 *
 * @throws BookieApiError from every method when Bookie answers an error (after the retries).
 */
export class BookieClient {
  /** The generated client every call goes through. */
  readonly api: PartnerClient;

  constructor(options: BookieClientOptions) {
    this.api = createPartnerClient({ ...options, timeoutMs: options.timeoutMs ?? 10_000 });
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

  /**
   * `POST /bet-builder/selections` (docs/adr/0045-bet-builder-api.md): the odds of a football event that can start a
   * bet builder or join `legs`, each with the builder's odds once added; `available` false with the refusal otherwise.
   * @throws BookieApiError 404 for an event not in the book.
   */
  builderSelections(body: BuilderSelectionsBody): Promise<BuilderSelectionsAnswer> {
    return this.call<BuilderSelectionsAnswer>(ROUTES.builderSelections, { body });
  }

  /**
   * `POST /bet-builder/calculate` (docs/adr/0045-bet-builder-api.md): the combined odds of the legs as one builder
   * (6 decimals), its probabilities, the odds still addable and a signed `quote` valid until `expires_at`; or
   * `available` false with the refusal naming the leg. @throws BookieApiError 404 for an event not in the book.
   */
  calculateBuilder(body: BuilderCalculateBody): Promise<BuilderCalculateAnswer> {
    return this.call<BuilderCalculateAnswer>(ROUTES.calculateBuilder, { body });
  }

  /** A report as CSV text (RFC 4180, header line): `bets` or `daily`. */
  getReportCsv(report: 'bets' | 'daily', window: { from: string; to: string }): Promise<string> {
    const route = report === 'bets' ? ROUTES.getBetReport : ROUTES.getDailyReport;
    return this.call<string>(route, { query: { ...window, format: 'csv' }, text: true });
  }

  /** A current access token (fetched or cached), e.g. to call a route the client does not know yet. */
  accessToken(): Promise<string> {
    return this.api.accessToken();
  }

  /**
   * Calls a route through the generated client (Bearer token, retries, generated `idempotence_id`s); resolves to the
   * parsed JSON answer (`undefined` for an empty one, e.g. 204), or the text with `options.text`.
   *
   * @throws BookieApiError with the answer's status and error body, or status 0 `network_error` when no answer came.
   */
  async call<T = unknown>(route: RouteSpec, options: CallOptions = {}): Promise<T> {
    // the route is known only at run time: the generated client untyped
    const api = this.api as unknown as {
      request(method: string, path: string, init: unknown): Promise<CallResult>;
    };
    const query = Object.entries(options.query ?? {}).filter(([, v]) => v !== undefined);
    let result: CallResult;
    try {
      const method = route.method.toLowerCase() as Lowercase<RouteSpec['method']>;
      result = await api.request(method, route.path, {
        params: { path: options.params ?? {} },
        // as URLSearchParams writes them (a space as `+`), undefined values left out
        querySerializer: () => new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString(),
        ...(options.body === undefined ? {} : { body: options.body }),
        parseAs: options.text ? 'text' : 'json',
      });
    } catch (e) {
      if (e instanceof BookieApiError) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      throw new BookieApiError(0, 'network_error', `${route.method} ${route.path}: ${msg}`);
    }
    const { data, error, response } = result;
    if (response.status >= 400) {
      const text = typeof error === 'string' ? error : JSON.stringify(error ?? '');
      throw BookieApiError.fromResponse(response.status, text);
    }
    return data as T;
  }

  /** Closes the client's connections. */
  close(): Promise<void> {
    return this.api.close();
  }
}
