import type { InsuranceOpenItemView } from '@bookie/contracts';
import type { Executor } from '../../db/transaction.js';
import { money6 } from '../bets/index.js';
import { listInsuranceOpenItems } from './bonuses.repo.js';

/**
 * The open items of insurance refunds for the operator (the insurance refund rule), newest first, at most `limit`;
 * only `whiteLabelId`'s when given (a partner user sees its own white label's only).
 */
export async function insuranceOpenItems(
  db: Executor,
  f: { whiteLabelId?: string | undefined; limit: number },
): Promise<InsuranceOpenItemView[]> {
  const rows = await listInsuranceOpenItems(db, f);
  return rows.map((r) => ({
    white_label_id: r.white_label_id,
    bet_id: r.bet_id,
    insurance_id: r.insurance_id,
    player_id: r.player_id,
    kind: r.kind,
    amount: money6(r.amount),
    currency_code: r.currency_code,
    since: r.since.toISOString(),
  }));
}
