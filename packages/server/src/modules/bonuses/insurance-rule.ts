import {
  format,
  formatMoney,
  type InsuranceRule,
  parseDecimal,
  parseInsuranceRule,
  validationError,
} from '@bookie/core';
import type { InsuranceRow } from './bonuses.repo.js';

/** The payout fields of an insurance as sent (spec 01 "Payout rules"). */
export interface PayoutFields {
  type: 'amount' | 'percent';
  amount?: string | undefined;
  percent?: string | undefined;
  max_amount?: string | null | undefined;
  strategies?:
    | { type?: 'amount' | 'percent' | undefined; max_odds_count_lose?: number | undefined }
    | undefined;
}

/** The stored payout columns. */
export interface PayoutColumns {
  payout_type: 'amount' | 'percent';
  amount: string | null;
  percent: string | null;
  max_amount: string | null;
  max_odds_count_lose: number | null;
}

/**
 * Checks the payout rule of spec 01 ("Payout rules") and gives its stored columns: `type` amount needs `amount`
 * (money, > 0); `type` percent needs `percent` in (0, 100] with up to 12 decimals and may cap it with `max_amount`
 * (up to 12 decimals); `strategies.type`, when sent, must equal `type`; `strategies.max_odds_count_lose` is the most
 * lost legs that still pay.
 *
 * @throws DomainError validation_error naming the field (`body.amount`, `body.percent`, `body.strategies.type`…).
 */
export function parsePayout(p: PayoutFields): PayoutColumns {
  if (p.strategies?.type !== undefined && p.strategies.type !== p.type) {
    throw validationError('body.strategies.type', `must equal type "${p.type}"`);
  }
  if (p.type === 'amount') {
    if (p.amount === undefined) throw validationError('body.amount', 'is required with type amount');
    if (p.percent !== undefined) throw validationError('body.percent', 'is only for type percent');
    if (p.max_amount !== undefined && p.max_amount !== null) {
      throw validationError('body.max_amount', 'is only for type percent');
    }
  } else {
    if (p.percent === undefined) throw validationError('body.percent', 'is required with type percent');
    if (p.amount !== undefined) throw validationError('body.amount', 'is only for type amount');
  }
  const maxLose = p.strategies?.max_odds_count_lose;
  const rule = parseInsuranceRule(
    {
      type: p.type,
      ...(p.amount !== undefined ? { amount: p.amount } : {}),
      ...(p.percent !== undefined ? { percent: p.percent } : {}),
      ...(p.max_amount !== undefined && p.max_amount !== null ? { max_amount: p.max_amount } : {}),
      ...(maxLose !== undefined ? { max_odds_count_lose: maxLose } : {}),
    },
    'body',
  );
  return {
    payout_type: rule.type,
    amount: rule.type === 'amount' ? formatMoney(rule.amount) : null,
    percent: rule.type === 'percent' ? format(rule.percent, 12) : null,
    max_amount: rule.type === 'percent' && rule.maxAmount ? format(rule.maxAmount, 12) : null,
    max_odds_count_lose: maxLose ?? null,
  };
}

const exact = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 12 });

/** The core payout rule of a stored insurance (DECISIONS D20). */
export function ruleOf(r: InsuranceRow): InsuranceRule {
  const limit = r.max_odds_count_lose === null ? {} : { maxOddsCountLose: r.max_odds_count_lose };
  if (r.payout_type === 'amount')
    return { type: 'amount', amount: exact(r.amount as string, 'amount'), ...limit };
  return {
    type: 'percent',
    percent: exact(r.percent as string, 'percent'),
    ...(r.max_amount !== null ? { maxAmount: exact(r.max_amount, 'max_amount') } : {}),
    ...limit,
  };
}
