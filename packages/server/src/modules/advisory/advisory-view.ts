import type { AdvisoryBet, AdvisoryBetRequest, AdvisoryBetUpdate } from '@bookie/contracts';
import {
  add,
  compare,
  formatMoney,
  formatOdds,
  parseDecimal,
  parseOdds,
  validationError,
  ZERO,
} from '@bookie/core';

const dec = (v: string, field: string, maxDecimals: number) =>
  parseDecimal(v, { field, maxDecimals, allowNegative: false });
/** Odds of the advisory mode follow the one odds rule: above 1, at most 12 decimals. */
const odds = (v: string, field: string) => formatOdds(parseOdds(v, field, { maxDecimals: 12 }));
const money = (v: string, field: string) => formatMoney(dec(v, field, 6));

/** Bet status codes an advisory bet may report: accepted, declined, settled, unsettled, refunded, refunded
 * manually, cashed out, place error, force-declined. */
export const ADVISORY_STATUS_CODES = [1, 2, 3, 4, 5, 6, 7, 10, 11] as const;

/** The foreign selections as stored: odds with 6 decimals, the descriptions as sent. */
export function foreignSelectionsOf(
  list: AdvisoryBetRequest['foreign_selections'],
): Array<Record<string, unknown>> {
  const seen = new Set<string>();
  return (list ?? []).map((f, i) => {
    if (seen.has(f.id)) throw validationError(`foreign_selections[${i}].id`, `${f.id} is repeated`);
    seen.add(f.id);
    return { ...f, value: odds(f.value, `foreign_selections[${i}].value`) };
  });
}

/** The advisory bet as first reported (status accepted), in the stored shape. */
export function advisoryBetOf(body: AdvisoryBetRequest): Omit<AdvisoryBet, 'version'> {
  return {
    id: body.bet_id,
    status: { code: 1, reason: null },
    type: { code: body.type.code, system_sizes: [...body.type.system_sizes] },
    stake: { value: money(body.stake.value, 'stake.value'), currency_code: body.stake.currency_code },
    refund: null,
    selections: body.selections.map((s, i) => ({ ...s, value: odds(s.value, `selections[${i}].value`) })),
    foreign_selections: foreignSelectionsOf(body.foreign_selections),
    foreign_cash_out_orders: [],
    player_info: { client_ip: body.client_ip ?? null, country_code: body.country_code ?? null },
    created_at: new Date(body.created_at).toISOString(),
    cash_out_orders: {},
  };
}

/**
 * The whole new state of an advisory bet from a `PUT` (the update replaces the stored bet: what it leaves out is
 * removed); type, stake, player and creation time stay as first reported. The refund of a refunded bet (5, 6) is
 * its stake.
 *
 * @throws DomainError validation_error naming the field (`status.code`, a value, an order amount).
 */
export function updatedAdvisoryBet(
  stored: Omit<AdvisoryBet, 'version'>,
  body: AdvisoryBetUpdate,
): Omit<AdvisoryBet, 'version'> {
  if (!(ADVISORY_STATUS_CODES as readonly number[]).includes(body.status.code)) {
    throw validationError('status.code', `must be one of ${ADVISORY_STATUS_CODES.join(', ')}`);
  }
  const orders = (body.foreign_cash_out_orders ?? []).map((o, i) => ({
    ...o,
    amount: money(o.amount, `foreign_cash_out_orders[${i}].amount`),
    refund_amount: money(o.refund_amount, `foreign_cash_out_orders[${i}].refund_amount`),
    status: { code: o.status.code, reason: o.status.reason ?? null },
  }));
  const stake = dec(stored.stake.value, 'stake', 6);
  let accepted = ZERO;
  for (const o of orders)
    if (o.status.code === 'accepted') accepted = add(accepted, dec(o.amount, 'amount', 6));
  if (compare(accepted, stake) > 0) {
    throw validationError('foreign_cash_out_orders', 'the accepted amounts add up to more than the stake');
  }
  const refunded = body.status.code === 5 || body.status.code === 6;
  return {
    ...stored,
    status: { code: body.status.code, reason: body.status.reason ?? null },
    refund: refunded ? { ...stored.stake } : null,
    selections: body.selections.map((s, i) => ({ ...s, value: odds(s.value, `selections[${i}].value`) })),
    foreign_selections: foreignSelectionsOf(body.foreign_selections),
    foreign_cash_out_orders: orders,
  };
}

/** JSON with object keys sorted, so states compare equal whatever order the database keeps their keys in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
