/**
 * A small typed client of the wallet's own API, for tests and demos: deposits, balances, the ledger check and the
 * fault settings. Import from `@bookie/wallet/testing/wallet-api`.
 *
 * @packageDocumentation
 */
import type { FaultConfig } from '../http/faults.js';
import type { AccountCheck } from '../ledger/invariant.js';

/** A player's balances as `GET /players/{id}/balance` answers them (decimal strings, 6 decimals). */
export interface PlayerBalances {
  player_id: string;
  balances: { currency: string; available: string; held: string }[];
}

/** Calls a wallet at `baseUrl` (with `adminToken` when it requires one). */
export class WalletApi {
  constructor(
    readonly baseUrl: string,
    private readonly adminToken?: string,
  ) {}

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.adminToken) headers.authorization = `Bearer ${this.adminToken}`;
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  }

  /** Deposits `amount` (decimal string) for `playerId`. */
  deposit(playerId: string, amount: string, currency = 'EUR', reference?: string) {
    return this.#call<{ available: string; held: string; applied: boolean }>(
      'POST',
      `/players/${encodeURIComponent(playerId)}/deposits`,
      { currency, amount, ...(reference ? { reference } : {}) },
    );
  }

  /** `GET /players/{id}/balance`. */
  balances(playerId: string): Promise<PlayerBalances> {
    return this.#call('GET', `/players/${encodeURIComponent(playerId)}/balance`);
  }

  /** The balance of one currency (zeros when the account does not exist). */
  async balance(playerId: string, currency = 'EUR'): Promise<{ available: string; held: string }> {
    const b = (await this.balances(playerId)).balances.find((x) => x.currency === currency);
    return b ? { available: b.available, held: b.held } : { available: '0.000000', held: '0.000000' };
  }

  /** `GET /players/{id}/ledger`. */
  ledger(playerId: string) {
    return this.#call<{
      entries: { kind: string; reason: string; amount: string; bet_id: string | null; ref: string | null }[];
    }>('GET', `/players/${encodeURIComponent(playerId)}/ledger`);
  }

  /** `GET /admin/ledger/check`: the ledger invariant of every account, or of one player's. */
  checkLedger(playerId?: string): Promise<{ ok: boolean; accounts: AccountCheck[] }> {
    return this.#call(
      'GET',
      `/admin/ledger/check${playerId ? `?player=${encodeURIComponent(playerId)}` : ''}`,
    );
  }

  /** `PUT /admin/faults`: changes the fault settings. */
  setFaults(patch: Partial<FaultConfig>): Promise<FaultConfig> {
    return this.#call('PUT', '/admin/faults', patch);
  }
}
