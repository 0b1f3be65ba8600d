import type { BetView } from '@bookie/contracts';
import { mtsSystemSizes } from '@bookie/core';
import type { Bet, SelectionRow } from './bet.js';
import { betStatusCode, selectionCount } from './bet.js';
import { money6, odds6 } from './callback-bodies.js';
import { type OrderRow, orderView } from './order-view.js';

function selectionView(s: SelectionRow): BetView['selections'][number] {
  return {
    sport_event_id: s.sport_event_id,
    market_id: s.market_id,
    odd_id: s.odd_id,
    requested_odds: odds6(s.requested_odds),
    odds: odds6(s.odds),
    status: s.status,
    names: s.names ?? null,
  };
}

/**
 * The frame API's view of a bet; with `orders`, its cash-out orders too (oldest first). `system_sizes` follows spec
 * 03's rule, as every view of a bet does: `[1]` for a single, `[n]` for an express of n selections, the chosen sizes
 * for a system.
 */
export function toBetView(bet: Bet, orders?: readonly OrderRow[]): BetView {
  const r = bet.row;
  return {
    id: r.id,
    status: betStatusCode(r),
    state: r.state,
    bet_type: r.bet_type,
    system_sizes: mtsSystemSizes(r.bet_type, selectionCount(bet), r.system_sizes),
    stake: money6(r.stake),
    currency: r.currency,
    total_odds: odds6(r.total_odds),
    selections: bet.selections.map(selectionView),
    ...(bet.builders.length > 0
      ? {
          bet_builders: bet.builders.map((b) => ({
            sport_event_id: b.row.sport_event_id,
            requested_odds: odds6(b.row.requested_odds),
            odds: odds6(b.row.odds),
            status: b.row.status,
            legs: b.legs.map(selectionView),
          })),
        }
      : {}),
    restrictions: r.restrictions as BetView['restrictions'],
    freebet_id: r.freebet_id,
    insurance_id: r.insurance_id,
    boost_id: r.boost_id,
    created_at: new Date(r.created_at).toISOString(),
    decided_at: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    payout: r.payout === null ? null : money6(r.payout),
    settle_amount: r.settle_amount === null ? null : money6(r.settle_amount),
    settle_type: r.settle_type,
    cashed_out_stake: money6(r.cashed_out_stake),
    cashed_out_refund: money6(r.cashed_out_refund),
    ...(orders ? { cash_out_orders: orders.map(orderView) } : {}),
  };
}
