import type { Executor } from '../../db/transaction.js';
import { releaseBoost, releaseFreebet, unapplyInsurance } from './bonuses.repo.js';

/**
 * Placement hook for a bet that ends without being accepted — declined, Place Error, force_decline, or interrupted
 * and recovered (spec 01 "Freebet": reserved → available on decline or placement error; a boost's quantity
 * is given back on decline; spec 01 "Bet insurance": a bet not accepted for any reason leaves its insurance
 * available). In the transaction that moves the bet; idempotent (only what this bet still holds).
 */
export async function releaseBonuses(tx: Executor, betId: string, now: Date): Promise<void> {
  await releaseFreebet(tx, betId, now);
  await releaseBoost(tx, betId, now);
  await unapplyInsurance(tx, betId, now);
}
