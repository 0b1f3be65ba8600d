import { formatMicros } from '../money.js';
import { accountTotals, type WalletExecutor } from './ledger.repo.js';

/** The ledger check of one account, amounts as decimal strings with 6 decimals. */
export interface AccountCheck {
  player_id: string;
  currency: string;
  available: string;
  held: string;
  deposited: string;
  captured: string;
  credited: string;
  debited: string;
  /** available + held = deposited − captured + credited − debited. */
  balanced: boolean;
  /** held = Σ hold − Σ release − Σ capture: every held micro-unit is an open hold. */
  holdsBalanced: boolean;
}

/**
 * Checks the ledger invariant of every account (or one player's): the balance columns must equal what the ledger
 * rows add up to. The ledger rows are the truth; the balance columns are a running total kept in the same
 * transaction, so any drift is a bug.
 */
export async function checkLedger(
  db: WalletExecutor,
  playerId?: string,
): Promise<{ ok: boolean; accounts: AccountCheck[] }> {
  const rows = await accountTotals(db, playerId);
  const accounts = rows.map((r) => {
    const deposited = BigInt(r.deposited);
    const captured = BigInt(r.captured);
    const credited = BigInt(r.credited);
    const debited = BigInt(r.debited);
    const openHolds = BigInt(r.holds) - BigInt(r.released) - captured;
    return {
      player_id: r.player_id,
      currency: r.currency,
      available: formatMicros(r.available),
      held: formatMicros(r.held),
      deposited: formatMicros(deposited),
      captured: formatMicros(captured),
      credited: formatMicros(credited),
      debited: formatMicros(debited),
      balanced: r.available + r.held === deposited - captured + credited - debited,
      holdsBalanced: r.held === openHolds,
    };
  });
  return { ok: accounts.every((a) => a.balanced && a.holdsBalanced), accounts };
}
