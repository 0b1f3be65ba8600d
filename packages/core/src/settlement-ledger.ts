/**
 * Unsettle as a full reversal (the full unsettle rule, the callback contract, "Bet" states Settle ⇄ UnSettle): the callbacks of a bet form a
 * small ledger of settle and unsettle amounts. Every unsettle reverses the last settle in full, the next settle
 * carries the new full amount, and at every moment Σ settle − Σ unsettle = the current payout.
 *
 * @packageDocumentation
 */
import { add, eq, formatMoney, type Rational, sub, ZERO } from './decimal.js';
import { DomainError } from './errors.js';

/** One settlement callback of a bet: `/bet/settle` with `settle_amount` or `/bet/unsettle` with `unsettle_amount`. */
export interface LedgerEntry {
  /** Which callback. */
  kind: 'settle' | 'unsettle';
  /** The amount it carries, bet currency, exact (written with 6 decimals). */
  amount: Rational;
}

/**
 * Σ settle − Σ unsettle over the entries (the full unsettle rule): the amount currently paid out for the bet (0 while
 * unsettled or never settled).
 */
export function ledgerBalance(entries: readonly LedgerEntry[]): Rational {
  return entries.reduce((acc, e) => (e.kind === 'settle' ? add(acc, e.amount) : sub(acc, e.amount)), ZERO);
}

/** True when the bet is currently settled: the last entry is a settle. */
export function isLedgerSettled(entries: readonly LedgerEntry[]): boolean {
  return entries.at(-1)?.kind === 'settle';
}

/**
 * The `unsettle_amount` of the next `/bet/unsettle` (the full unsettle rule): the `settle_amount` of the last settle, which it
 * reverses in full (also when that was 0).
 *
 * @throws DomainError `conflict` when the bet is not currently settled.
 */
export function nextUnsettleAmount(entries: readonly LedgerEntry[]): Rational {
  const last = entries.at(-1);
  if (last?.kind !== 'settle')
    throw new DomainError('conflict', 'the bet is not settled; nothing to unsettle');
  return last.amount;
}

/**
 * The entries to append to unsettle the bet (the full unsettle rule): one unsettle of the last settle amount.
 *
 * @throws DomainError `conflict` when the bet is not currently settled.
 */
export function unsettleEntries(entries: readonly LedgerEntry[]): LedgerEntry[] {
  return [{ kind: 'unsettle', amount: nextUnsettleAmount(entries) }];
}

/**
 * The entries to append to (re)settle the bet at `amount` (the full unsettle rule): a settle when the bet is not settled, or
 * an unsettle of the previous amount followed by a settle of the new one. Afterwards the balance equals `amount`.
 */
export function resettleEntries(entries: readonly LedgerEntry[], amount: Rational): LedgerEntry[] {
  const out: LedgerEntry[] = isLedgerSettled(entries) ? unsettleEntries(entries) : [];
  out.push({ kind: 'settle', amount });
  return out;
}

/**
 * Checks a ledger (the full unsettle rule): it starts with a settle, alternates settle/unsettle, each unsettle equals the
 * settle before it, and no amount is negative.
 *
 * @throws DomainError `conflict` naming the first bad entry (`details.index`).
 */
export function assertLedger(entries: readonly LedgerEntry[]): void {
  entries.forEach((e, i) => {
    const expected = i % 2 === 0 ? 'settle' : 'unsettle';
    if (e.kind !== expected) {
      throw new DomainError('conflict', `ledger entry ${i}: expected ${expected}, got ${e.kind}`, {
        index: i,
      });
    }
    if (e.amount.num < 0n)
      throw new DomainError('conflict', `ledger entry ${i}: negative amount`, { index: i });
    const prev = entries[i - 1];
    if (e.kind === 'unsettle' && prev && !eq(prev.amount, e.amount)) {
      throw new DomainError(
        'conflict',
        `ledger entry ${i}: unsettle ${formatMoney(e.amount)} does not reverse settle ${formatMoney(prev.amount)}`,
        { index: i },
      );
    }
  });
}
