import { validationError } from '@bookie/core';
import { inTransaction } from '@bookie/storage';
import type { Kysely } from 'kysely';
import type { WalletDB } from '../db/schema.js';
import { formatMicros, toMicros } from '../money.js';
import { applyMovement, lockAccount, movementExists } from './ledger.repo.js';

/** Input of {@link deposit}. */
export interface DepositInput {
  playerId: string;
  /** Currency code, e.g. `EUR` (upper-case letters and digits, 3–10). */
  currency: string;
  /** Decimal string with at most 6 decimals, > 0. */
  amount: string;
  /** Optional idempotency reference: a second deposit with the same reference moves nothing. */
  reference?: string;
}

/** A balance as the wallet's API writes it: decimal strings with 6 decimals. */
export interface BalanceView {
  player_id: string;
  currency: string;
  available: string;
  held: string;
}

const CURRENCY = /^[A-Z][A-Z0-9]{2,9}$/;

/** Validates a player id and currency code (the wallet's account key). */
export function checkAccountKey(playerId: unknown, currency: unknown): void {
  if (typeof playerId !== 'string' || playerId.length === 0 || playerId.length > 128) {
    throw validationError('player_id', 'must be a non-empty string of at most 128 characters');
  }
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) {
    throw validationError('currency', 'must be a currency code like "EUR"');
  }
}

/**
 * Credits a deposit to a player's account (created if missing), as one ledger row `deposit`.
 *
 * @throws DomainError `validation_error` for a bad player id, currency or amount.
 */
export async function deposit(
  db: Kysely<WalletDB>,
  input: DepositInput,
): Promise<BalanceView & { applied: boolean }> {
  checkAccountKey(input.playerId, input.currency);
  const amount = toMicros(input.amount, 'amount', { allowZero: false });
  if (input.reference !== undefined && (input.reference.length === 0 || input.reference.length > 200)) {
    throw validationError('reference', 'must be 1 to 200 characters');
  }
  return inTransaction(db, async (tx) => {
    await lockAccount(tx, input.playerId, input.currency);
    if (input.reference && (await movementExists(tx, 'deposit', 'deposit', input.reference))) {
      const b = await lockAccount(tx, input.playerId, input.currency);
      return view(input.playerId, input.currency, b, false);
    }
    const b = await applyMovement(tx, {
      playerId: input.playerId,
      currency: input.currency,
      kind: 'deposit',
      reason: 'deposit',
      amount,
      ref: input.reference ?? null,
    });
    return view(input.playerId, input.currency, b, true);
  });
}

function view(
  playerId: string,
  currency: string,
  b: { available: bigint; held: bigint },
  applied: boolean,
): BalanceView & { applied: boolean } {
  return {
    player_id: playerId,
    currency,
    available: formatMicros(b.available),
    held: formatMicros(b.held),
    applied,
  };
}
