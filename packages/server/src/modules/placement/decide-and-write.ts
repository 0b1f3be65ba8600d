import { failpoint } from '../../platform/failpoints.js';
import type { Bet } from '../bets/index.js';
import { decideBet } from '../decision/index.js';
import type { PlacementDeps } from './deps.js';
import type { FormedBet } from './form.js';
import type { PlaceOutcome } from './hold.js';

/**
 * Step 3, processing: the one decision on the held bet (after its bet delay, D34), then the decision's write —
 * Accept with `/bet/accept` or Decline with `/bet/decline` and every failing restriction — in one transaction that
 * decides again on the exposure under its lock (D38). An accepted bet moves its outcomes' odds (shading, D39).
 * Returns the bet as decided, or undefined when the recovery job decided it first.
 */
export async function decideAndWrite(
  deps: PlacementDeps,
  formed: FormedBet,
  held: Extract<PlaceOutcome, { kind: 'held' }>,
): Promise<Bet | undefined> {
  const { session, body, held: heldBet } = formed;
  const decision = await decideBet(deps, {
    mode: 'place',
    whiteLabel: formed.whiteLabel,
    playerId: session.playerId,
    bet: formed.req,
    held: heldBet.bet,
    group: formed.group,
    lastBets: heldBet.lastBets,
    clientCreatedAt: body.client_created_at,
    receivedAt: formed.receivedAt,
  });
  const decided = await deps.writes.decide({
    bet: heldBet.bet,
    place: { callback: heldBet.place, attempts: held.attempts, status: held.status },
    restrictions: decision.restrictions,
    acceptedOdds: decision.acceptedOdds,
    acceptedBuilderOdds: decision.acceptedBuilderOdds,
    builderQuotes: decision.builderQuotes,
    totalOdds: decision.totalOdds,
    decidedAt: new Date(deps.clock.now()),
    ...(decision.recheck ? { risk: decision.recheck } : {}),
  });
  failpoint('placement:after-decision-commit');
  // the risk engine: an accepted bet moved its outcomes' exposure (odds shading, D39)
  if (decided?.row.state === 'accepted')
    deps.risk?.shader?.kick([...decided.selections, ...decided.builders.flatMap((b) => b.legs)]);
  return decided;
}
