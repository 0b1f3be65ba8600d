import { add, formatMoney, parseDecimal, parseMoney, type Rational, sub, ZERO } from '@bookie/core';

/** A player's balance in one currency: what is available and what is held (exact decimals). */
export interface Balance {
  available: Rational;
  held: Rational;
}

/** A balance written as decimal strings with 6 decimals (DECISIONS D1). */
export interface BalanceView {
  available: string;
  held: string;
}

/** Writes a {@link Balance} with 6 decimals. */
export function viewOf(b: Balance): BalanceView {
  return { available: formatMoney(b.available), held: formatMoney(b.held) };
}

/** True when two balances are equal to the micro-unit. */
export function sameBalance(a: Balance, b: Balance): boolean {
  const va = viewOf(a);
  const vb = viewOf(b);
  return va.available === vb.available && va.held === vb.held;
}

/**
 * The balance the partner should show, kept as the platform's callbacks move it: `/bet/place` holds the stake,
 * `/bet/accept` captures it, `/bet/decline` releases it, `/bet/settle`, `/bet/insurances/accepted` and
 * `/bet/cash-out-orders/accepted` credit, `/bet/unsettle` debits (spec 01 "States and transitions", DECISIONS D12).
 */
export class ExpectedBalance {
  #b: Balance;
  constructor(start: Balance = { available: ZERO, held: ZERO }) {
    this.#b = start;
  }
  get current(): Balance {
    return this.#b;
  }
  /** Starts again from an observed balance (after a mismatch was reported, so one fault is reported once). */
  rebase(b: Balance): void {
    this.#b = b;
  }
  hold(stake: string): void {
    const s = parseMoney(stake, 'stake');
    this.#b = { available: sub(this.#b.available, s), held: add(this.#b.held, s) };
  }
  capture(stake: string): void {
    this.#b = { ...this.#b, held: sub(this.#b.held, parseMoney(stake, 'stake')) };
  }
  release(stake: string): void {
    const s = parseMoney(stake, 'stake');
    this.#b = { available: add(this.#b.available, s), held: sub(this.#b.held, s) };
  }
  credit(amount: string): void {
    this.#b = { ...this.#b, available: add(this.#b.available, parseMoney(amount, 'amount')) };
  }
  debit(amount: string): void {
    this.#b = { ...this.#b, available: sub(this.#b.available, parseMoney(amount, 'amount')) };
  }
}

/** Reads a player's balance from the partner, when the partner offers a way. */
export interface BalanceReader {
  /** Where it reads (for the report). */
  readonly source: string;
  read(playerId: string, currency: string): Promise<Balance>;
}

interface WalletBalanceAnswer {
  balances?: { currency?: unknown; available?: unknown; held?: unknown }[];
}

/**
 * Reads `GET {baseUrl}/players/{id}/balance` as the reference wallet answers it:
 * `{player_id, balances: [{currency, available, held}]}`; a currency without an account is zero.
 *
 * @throws Error when the answer is not 200 or not of that shape.
 */
export function walletBalanceReader(baseUrl: string, timeoutMs: number): BalanceReader {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    source: `${base}/players/{player}/balance`,
    async read(playerId, currency) {
      const res = await fetch(`${base}/players/${encodeURIComponent(playerId)}/balance`, {
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'manual',
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`balance answered ${res.status}`);
      const json = JSON.parse(text) as WalletBalanceAnswer;
      if (!Array.isArray(json.balances)) throw new Error('balance answer has no balances array');
      const row = json.balances.find((b) => b.currency === currency);
      if (!row) return { available: ZERO, held: ZERO };
      return {
        available: parseDecimal(row.available, { field: 'available', maxDecimals: 6, allowNegative: true }),
        held: parseDecimal(row.held, { field: 'held', maxDecimals: 6, allowNegative: true }),
      };
    },
  };
}
