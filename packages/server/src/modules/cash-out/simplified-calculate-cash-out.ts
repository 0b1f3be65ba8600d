import type { CashOutQuote } from '@bookie/contracts';
import { calculateCashOut } from './calculate-cash-out.js';
import type { CashOutDeps } from './deps.js';

/**
 * Quotes the full cash-out of a bet (spec 03 `simplified-calculate`): {@link calculateCashOut} without an amount,
 * e.g. for support staff in a back office.
 *
 * @throws DomainError not_found.
 */
export function simplifiedCalculateCashOut(
  deps: CashOutDeps,
  input: { whiteLabelId: string; betId: string },
): Promise<CashOutQuote> {
  return calculateCashOut(deps, input);
}
