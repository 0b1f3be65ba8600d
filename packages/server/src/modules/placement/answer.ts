import type { BetView } from '@bookie/contracts';
import type { Bet } from '../bets/index.js';
import { loadBets, toBetView } from '../bets/index.js';
import type { PlacementDeps } from './deps.js';

/**
 * The last step: counts the decided bet, tells the player's stream and answers the bet as it is now; `known` spares
 * a read when the caller has the bet. (The steps that enqueued callbacks woke the dispatcher: the decision hands its
 * callbacks to it born leased, a compensation kicks it.)
 */
export async function answer(deps: PlacementDeps, betId: string, known?: Bet): Promise<BetView> {
  const bet = known ?? ((await loadBets(deps.database.db, [betId]))[0] as Bet);
  deps.metrics?.betDecided({
    whiteLabelId: bet.row.white_label_id,
    state: bet.row.state,
    createdAt: new Date(bet.row.created_at),
    decidedAt: bet.row.decided_at ? new Date(bet.row.decided_at) : null,
  });
  const view = toBetView(bet);
  deps.betEvents.emit({ whiteLabelId: bet.row.white_label_id, playerId: bet.row.player_id, bet: view });
  return view;
}
