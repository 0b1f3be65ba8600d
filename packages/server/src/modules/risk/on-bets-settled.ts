import {
  add,
  closingLineValue,
  format,
  neg,
  parseDecimal,
  type Rational,
  roundHalfUp,
  ZERO,
} from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import type { Bet } from '../bets/index.js';
import { readClosingOdds } from '../trading/index.js';
import { addClosingLineValues } from './player-risk.repo.js';

/** What settlement did to one bet (see the settlement hook of bonuses): unsettled and/or settled again. */
export interface RiskSettlementChange {
  bet: Bet;
  unsettled: boolean;
  settled: boolean;
}

const dec = (s: string) => parseDecimal(s, { field: 'odds', maxDecimals: 12 });

/**
 * Settlement hook of the risk engine (D40), in the transaction that settles or unsettles a batch: each prematch leg
 * of a settled bet with a closing price adds its closing-line value to the player's sums; an unsettle takes the
 * same values back, so a player's score always reflects the bets settled now.
 */
export async function onBetsSettledForRisk(
  tx: Executor,
  changes: readonly RiskSettlementChange[],
): Promise<void> {
  const relevant = changes.filter((c) => c.unsettled !== c.settled);
  if (relevant.length === 0) return;
  const legs = relevant.flatMap((c) => c.bet.selections.filter((s) => s.match_status === 0));
  const closing = await readClosingOdds(tx, legs);
  const perPlayer = new Map<
    string,
    { whiteLabelId: string; playerId: string; sum: Rational; count: number }
  >();
  for (const c of relevant) {
    const sign = c.settled ? 1 : -1;
    for (const s of c.bet.selections) {
      if (s.match_status !== 0) continue;
      const close = closing.get(JSON.stringify([s.sport_event_id, s.market_id, s.odd_id]));
      if (close === undefined) continue;
      // each leg's value rounded once to 12 decimals, so an unsettle takes back exactly what the settle added
      const v = roundHalfUp(closingLineValue(dec(s.odds), dec(close)), 12);
      const key = JSON.stringify([c.bet.row.white_label_id, c.bet.row.player_id]);
      const acc = perPlayer.get(key) ?? {
        whiteLabelId: c.bet.row.white_label_id,
        playerId: c.bet.row.player_id,
        sum: ZERO,
        count: 0,
      };
      acc.sum = add(acc.sum, sign > 0 ? v : neg(v));
      acc.count += sign;
      perPlayer.set(key, acc);
    }
  }
  await addClosingLineValues(
    tx,
    [...perPlayer.values()]
      .filter((p) => p.count !== 0 || p.sum.num !== 0n)
      .map((p) => ({
        whiteLabelId: p.whiteLabelId,
        playerId: p.playerId,
        sum: format(p.sum, 12),
        count: p.count,
      })),
  );
}
