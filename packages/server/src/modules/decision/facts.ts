import { type BuilderSettings, parseStake, type Rational, type RiskState } from '@bookie/core';
import { builderSettings } from '../bet-builder/index.js';
import type { FirstRequest } from '../risk/index.js';
import { firstRequestOf, riskStateOf, riskStateOfFacts } from '../risk/index.js';
import type { DecisionRequest, RecommendedPayout } from './decision-request.js';
import type { DecisionDeps } from './deps.js';
import { readFactsBatched } from './fact-reads.js';
import { eventsOf, outcomesOf } from './outcomes.js';
import { requestSportEvents } from './validate-placement.js';

/** The facts a decision reads besides the catalogue, gathered once per bet. */
export interface BetFacts {
  /**
   * The risk engine's facts: the player's group, the limits and the exposure of the bet's outcomes; undefined when
   * the engine is off. A placement's exposure is empty here: its write decides again on the locked exposure (D38).
   */
  risk: RiskState | undefined;
  /** When the player last had a bet accepted on each of the bet's sport events (`bet_interval`). */
  lastBets: ReadonlyMap<string, Date>;
  /** The white label's builder settings, read when the bet has builders. */
  builder: BuilderSettings | undefined;
}

/**
 * Gathers a bet's facts once. A placement brings what its hold read (the player's group and last bets) and reads
 * no exposure: it decides on none, and its write decides again under the exposure lock. Every other way reads the
 * risk facts (group and exposure) and the player's last bets in one round trip ({@link readFactsBatched}); a
 * reported bet and `GET /restrictions` record the player's first request (spec 03 VIP counts the first calculation
 * or placement), advice only previews it.
 */
export async function gatherFacts(deps: DecisionDeps, request: DecisionRequest): Promise<BetFacts> {
  const { whiteLabel, bet } = request;
  const builder = (bet.builders ?? []).length > 0 ? await builderSettings(deps, whiteLabel.id) : undefined;
  if (request.mode === 'place') {
    const settings = deps.risk ? await deps.risk.book.get() : undefined;
    return {
      risk:
        deps.risk && settings
          ? riskStateOf(deps.risk, settings, {
              whiteLabelId: whiteLabel.id,
              currency: bet.currency,
              groupName: request.group,
              exposure: new Map(),
            })
          : undefined,
      lastBets: request.lastBets,
      builder,
    };
  }
  const recommended = request.mode === 'advise' ? undefined : request.recommendedMaxPayout;
  const input = deps.risk
    ? {
        whiteLabelId: whiteLabel.id,
        playerId: request.playerId,
        currency: bet.currency,
        outcomes: outcomesOf(bet, eventsOf(deps.catalog, bet)),
        ...(recommended !== undefined ? { recommendedMaxPayout: parseRecommended(recommended) } : {}),
        record: request.mode !== 'advise',
      }
    : undefined;
  const read = await readFactsBatched(deps, {
    risk: input && { whiteLabelId: input.whiteLabelId, playerId: input.playerId, keys: input.outcomes },
    lastBets: {
      whiteLabelId: whiteLabel.id,
      playerId: request.playerId,
      sportEventIds: requestSportEvents(bet),
    },
  });
  const risk =
    deps.risk && input && read.risk
      ? await riskStateOfFacts(deps.risk, deps.database.db, input, read.risk)
      : undefined;
  const lastBets = read.lastBets;
  return { risk, lastBets, builder };
}

/** The player's risk group as a placement forms its bet (spec 03 VIP, D38). */
export interface GroupAtHold {
  /** The group the risk book already knows for the player. */
  known: string | undefined;
  /** For a player without one: the group this first request gives, recorded with the hold. */
  firstRequest: Omit<FirstRequest, 'whiteLabelId' | 'playerId'> | undefined;
}

/**
 * The player's risk group before a placement's hold, from the risk book's cache: the known group, or the one this
 * first request gives (raised by `recommended_max_payout`); nothing when the risk engine is off.
 */
export async function groupAtHold(
  deps: Pick<DecisionDeps, 'risk'>,
  input: {
    whiteLabelId: string;
    playerId: string;
    currency: string;
    recommendedMaxPayout?: RecommendedPayout;
  },
): Promise<GroupAtHold> {
  if (!deps.risk) return { known: undefined, firstRequest: undefined };
  const settings = await deps.risk.book.get();
  const known = deps.risk.book.playerGroup(input.whiteLabelId, input.playerId);
  if (known !== undefined) return { known, firstRequest: undefined };
  const recommended = input.recommendedMaxPayout;
  return {
    known,
    firstRequest: firstRequestOf(deps.risk, settings, {
      currency: input.currency,
      ...(recommended !== undefined ? { recommendedMaxPayout: parseRecommended(recommended) } : {}),
    }),
  };
}

/** @throws DomainError validation_error naming the request's field. */
function parseRecommended(r: RecommendedPayout): Rational {
  return parseStake(r.value, r.field);
}
