import { type CashOutOrder, PARTNER_BET_TYPE_CODE, type PartnerBet } from '@bookie/contracts';
import { BET_STATUS, mtsSystemSizes } from '@bookie/core';
import { type Bet, type BetRow, betStatusCode, selectionCount } from './bet.js';
import { money6, odds6 } from './callback-bodies.js';

/** The columns of a bet's row the partner bet object shows. */
export type PartnerBetRow = Pick<
  BetRow,
  | 'id'
  | 'partner_bet_id'
  | 'player_id'
  | 'source'
  | 'state'
  | 'settle_type'
  | 'settle_status'
  | 'bet_type'
  | 'system_sizes'
  | 'stake'
  | 'currency'
  | 'total_odds'
  | 'client_ip'
  | 'country_code'
  | 'restrictions'
  | 'created_at'
  | 'decided_at'
  | 'payout'
  | 'settle_amount'
  | 'settled_at'
>;

/** A bet as the partner bet object shows it: the row's columns it reads, the selections and builders. */
export type PartnerBetSource = Omit<Bet, 'row'> & { row: PartnerBetRow };

function reasonOf(bet: PartnerBetSource, code: number): string | null {
  const first = (bet.row.restrictions as Array<{ type?: unknown }>)[0];
  if (first && typeof first.type === 'string') return first.type;
  if (code === BET_STATUS.REFUNDED || code === BET_STATUS.REFUNDED_MANUALLY) {
    return bet.selections.find((s) => s.status_reason)?.status_reason ?? null;
  }
  return null;
}

/** A platform selection (or a builder's inner leg) in the partner shape. */
function partnerSelection(s: Bet['selections'][number]) {
  return {
    sport_event_id: s.sport_event_id,
    market_id: s.market_id,
    odd_id: s.odd_id,
    value: odds6(s.odds),
    requested_value: odds6(s.requested_odds),
    status: s.status,
  };
}

/** A foreign selection of an MTS mixed combo as the partner reported it, with its current status. */
function foreignSelectionOf(s: Bet['selections'][number]): Record<string, unknown> {
  const info = (s.event_info as { foreign?: Record<string, unknown> }).foreign ?? {};
  return {
    id: s.foreign_id,
    value: odds6(s.odds),
    ...info,
    status: s.status,
    ...(s.status_reason ? { status_reason: s.status_reason } : {}),
  };
}

/**
 * A bet in the partner bet-object shape (`GET /bets`, `GET /bets/{bet_id}`, the answer of `POST /bets`). Its
 * `type.system_sizes` follows spec 03's rule for every bet: `[1]` for a single, `[n]` for an express of n selections
 * (foreign ones count), the chosen sizes for a system. An MTS bet is shown under the
 * partner's id with its foreign selections, player address and foreign cash-out orders (`foreignCashOutOrders`,
 * read by the caller); frame bets carry none. `cashOutOrders` are the orders Bookie decided, by order id.
 */
export function toPartnerBet(
  bet: PartnerBetSource,
  foreignCashOutOrders: unknown[] = [],
  cashOutOrders: readonly CashOutOrder[] = [],
): PartnerBet {
  const r = bet.row;
  const code = betStatusCode(r);
  const settled = r.state === 'settled' && r.payout !== null && r.settle_amount !== null;
  const refunded = code === BET_STATUS.REFUNDED || code === BET_STATUS.REFUNDED_MANUALLY;
  return {
    id: r.partner_bet_id ?? r.id,
    player_id: r.player_id,
    source: r.source ?? 'frame',
    status: { code, reason: reasonOf(bet, code) },
    type: {
      code: PARTNER_BET_TYPE_CODE[r.bet_type],
      system_sizes: mtsSystemSizes(r.bet_type, selectionCount(bet), r.system_sizes),
    },
    stake: { value: money6(r.stake), currency_code: r.currency },
    total_odds: odds6(r.total_odds),
    selections: bet.selections.filter((s) => !s.foreign_id).map(partnerSelection),
    ...(bet.builders.length > 0
      ? {
          bet_builders: bet.builders.map((b) => ({
            sport_event_id: b.row.sport_event_id,
            value: odds6(b.row.odds),
            requested_value: odds6(b.row.requested_odds),
            status: b.row.status,
            legs: b.legs.map(partnerSelection),
          })),
        }
      : {}),
    foreign_selections: bet.selections.filter((s) => s.foreign_id).map(foreignSelectionOf),
    player_info: { client_ip: r.client_ip ?? null, country_code: r.country_code ?? null },
    restrictions: r.restrictions as PartnerBet['restrictions'],
    created_at: new Date(r.created_at).toISOString(),
    accepted_at: r.decided_at && r.state !== 'declined' ? new Date(r.decided_at).toISOString() : null,
    settlement: settled
      ? {
          payout: money6(r.payout as string),
          settle_amount: money6(r.settle_amount as string),
          settle_type: r.settle_type ?? 0,
          settled_at: r.settled_at ? new Date(r.settled_at).toISOString() : null,
        }
      : null,
    refund:
      refunded && r.settle_amount !== null
        ? { value: money6(r.settle_amount), currency_code: r.currency }
        : null,
    cash_out_orders: Object.fromEntries(cashOutOrders.map((o) => [o.id, o])),
    foreign_cash_out_orders: foreignCashOutOrders,
  };
}
