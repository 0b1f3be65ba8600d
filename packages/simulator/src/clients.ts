/**
 * The HTTP clients a replay drives the platform with: the betting frame API as players use it (session tokens), the
 * operator's admin API (reports, the callback outbox) and the reference wallet's own API (deposits, balances, ledger).
 * All share one undici keep-alive agent.
 *
 * @packageDocumentation
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { BetPage, BetView, PlaceBetRequest, SportEvent } from '@bookie/contracts';
import { type Dispatcher, request } from 'undici';

/** A non-2xx answer (or a transport failure, `status` 0). */
export class HttpError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${url} → ${status || 'network error'}: ${body.slice(0, 300)}`);
    this.name = 'HttpError';
  }
  /** The `error.code` of a Bookie error body, if any. */
  get code(): string | undefined {
    try {
      return (JSON.parse(this.body) as { error?: { code?: string } }).error?.code;
    } catch {
      return undefined;
    }
  }
}

/** One JSON call; resolves to the parsed body of a 2xx answer. */
export async function callJson<T>(
  dispatcher: Dispatcher,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  opts: { token?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method,
      headers,
      dispatcher,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } catch (err) {
    throw new HttpError(method, url, 0, (err as Error).message);
  }
  const text = await res.body.text();
  if (res.statusCode < 200 || res.statusCode > 299) throw new HttpError(method, url, res.statusCode, text);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The frame API as a player's browser calls it (`Authorization: Bearer <session token>`). */
export class FrameApi {
  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly baseUrl: string,
  ) {}

  /** `GET /frame-api/sport-events/{id}`: the event as Bookie's own replica shows it. */
  getEvent(session: string, id: string): Promise<SportEvent> {
    return callJson(this.dispatcher, 'GET', `${this.baseUrl}/frame-api/sport-events/${id}`, {
      token: session,
    });
  }

  /** `POST /frame-api/bets`: places a bet; the answer is the bet once accepted or declined. */
  placeBet(session: string, body: PlaceBetRequest): Promise<BetView> {
    return callJson(this.dispatcher, 'POST', `${this.baseUrl}/frame-api/bets`, { token: session, body });
  }

  /**
   * {@link placeBet}, tried again (20 times at most, waiting 20 ms × the attempt) while the answer may change: Bookie's
   * own replica a moment behind the feed (422 `restricted`: the event is not there yet), a dropped connection or a
   * 503. The body's `client_key` makes a retry idempotent. Resolves to the bet, or to the last error's message.
   */
  async placeBetRetrying(
    session: string,
    body: PlaceBetRequest,
    signal?: AbortSignal,
  ): Promise<{ answer: BetView } | { error: string }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return { answer: await this.placeBet(session, body) };
      } catch (err) {
        const retry =
          err instanceof HttpError &&
          (err.status === 0 || err.status === 503 || (err.status === 422 && err.code === 'restricted'));
        if (!retry || attempt >= 20) return { error: (err as Error).message };
        await delay(20 * attempt, undefined, signal ? { signal } : {}).catch((e: unknown) => {
          throw signal?.aborted ? signal.reason : e;
        });
      }
    }
  }

  /** Every bet of the session's player (`GET /frame-api/bets`, all pages). */
  async allBets(session: string): Promise<BetView[]> {
    const out: BetView[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page: BetPage = await callJson(
        this.dispatcher,
        'GET',
        `${this.baseUrl}/frame-api/bets?limit=200${q}`,
        {
          token: session,
        },
      );
      out.push(...page.items);
      cursor = page.next;
    } while (cursor);
    return out;
  }
}

/** A player's balance at the wallet (6-decimal strings). */
export interface WalletBalance {
  available: string;
  held: string;
}

/** A wallet ledger row as `GET /players/{id}/ledger` shows it. */
export interface WalletLedgerEntry {
  kind: string;
  reason: string;
  amount: string;
  bet_id: string | null;
  currency: string;
}

/** The reference wallet's own API (not part of Bookie: the partner's back office). */
export class WalletClient {
  constructor(
    private readonly dispatcher: Dispatcher,
    readonly baseUrl: string,
    private readonly adminToken?: string,
  ) {}

  /** Deposits `amount` (decimal string) for a player; `reference` makes it once-only. */
  deposit(playerId: string, amount: string, currency: string, reference?: string): Promise<unknown> {
    return callJson(
      this.dispatcher,
      'POST',
      `${this.baseUrl}/players/${encodeURIComponent(playerId)}/deposits`,
      {
        ...(this.adminToken ? { token: this.adminToken } : {}),
        body: { currency, amount, ...(reference ? { reference } : {}) },
      },
    );
  }

  /** The balance in one currency (zeros when the account does not exist). */
  async balance(playerId: string, currency: string): Promise<WalletBalance> {
    const r = await callJson<{ balances: { currency: string; available: string; held: string }[] }>(
      this.dispatcher,
      'GET',
      `${this.baseUrl}/players/${encodeURIComponent(playerId)}/balance`,
    );
    const b = r.balances.find((x) => x.currency === currency);
    return b ? { available: b.available, held: b.held } : { available: '0.000000', held: '0.000000' };
  }

  /** A player's ledger, oldest first. */
  async ledger(playerId: string): Promise<WalletLedgerEntry[]> {
    const r = await callJson<{ entries: WalletLedgerEntry[] }>(
      this.dispatcher,
      'GET',
      `${this.baseUrl}/players/${encodeURIComponent(playerId)}/ledger`,
    );
    return r.entries;
  }

  /** `GET /admin/ledger/check`: the wallet's own ledger invariant over every account. */
  checkLedger(): Promise<{ ok: boolean; accounts: unknown[] }> {
    return callJson(this.dispatcher, 'GET', `${this.baseUrl}/admin/ledger/check`, {
      ...(this.adminToken ? { token: this.adminToken } : {}),
    });
  }
}

/** Bookie's reconciliation report totals, one line per white label and currency. */
export interface ReconcileTotalsView {
  white_label_id: string;
  currency: string;
  bets_accepted: number;
  stakes_accepted: string;
  settles: number;
  settle_amount: string;
  unsettles: number;
  unsettle_amount: string;
  net_payout: string;
  unsettled_bets: number;
  open_bets: number;
  open_exposure: string;
  ledger_mismatches: number;
}

/** Bookie's reconciliation report (`GET /admin/reports/reconcile`). */
export interface ReconcileReportView {
  totals: ReconcileTotalsView[];
  bets: { checked: number; mismatched: number; mismatches: unknown[] };
}

/** The operator's admin API (`Authorization: Bearer $BOOKIE_ADMIN_TOKEN`). */
export class AdminApi {
  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** The reconciliation report of [from, to). */
  reconcile(from: Date, to: Date): Promise<ReconcileReportView> {
    const q = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
    return callJson(this.dispatcher, 'GET', `${this.baseUrl}/admin/reports/reconcile?${q}`, {
      token: this.token,
    });
  }

  /**
   * How many asynchronous callback deliveries (accept, decline, settle…) are still pending (up to `limit`): of one
   * white label when `whiteLabelId` is given (another white label's dead callback server is not this run's), else of
   * all.
   */
  async pendingCallbacks(limit = 1000, whiteLabelId?: string): Promise<number> {
    const of = whiteLabelId ? `&white_label_id=${encodeURIComponent(whiteLabelId)}` : '';
    const r = await callJson<{ items: { mode: string }[] }>(
      this.dispatcher,
      'GET',
      `${this.baseUrl}/admin/callbacks?status=pending&limit=${limit}${of}`,
      { token: this.token },
    );
    return r.items.filter((i) => i.mode === 'async').length;
  }

  /** The `/bet/cash-out-orders/accepted` callbacks of a bet: delivery status and the refund amount each carries. */
  async cashOutCallbacks(betId: string): Promise<{ status: string; refund_amount: string }[]> {
    const r = await callJson<{ items: { id: string; path: string }[] }>(
      this.dispatcher,
      'GET',
      `${this.baseUrl}/admin/callbacks?bet_id=${encodeURIComponent(betId)}&limit=100`,
      { token: this.token },
    );
    const out: { status: string; refund_amount: string }[] = [];
    for (const item of r.items.filter((i) => i.path === '/bet/cash-out-orders/accepted')) {
      const one = await callJson<{ status: string; body?: string }>(
        this.dispatcher,
        'GET',
        `${this.baseUrl}/admin/callbacks/${item.id}`,
        { token: this.token },
      );
      const body = JSON.parse(one.body ?? '{}') as { refund_amount?: string };
      out.push({ status: one.status, refund_amount: body.refund_amount ?? '' });
    }
    return out;
  }

  /** The settlement consumer of the server (`processed`: the last log version fully settled). */
  settlementStatus(): Promise<{ leader: boolean; processed: string; settled: number; callbacks: number }> {
    return callJson(this.dispatcher, 'GET', `${this.baseUrl}/admin/settlement/status`, { token: this.token });
  }
}
