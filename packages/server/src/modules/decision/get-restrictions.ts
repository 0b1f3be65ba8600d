import type { RestrictionsAnswer, RestrictionsQuery } from '@bookie/contracts';
import {
  betTypeFromMtsCode,
  formatMoney,
  mul,
  type OddsStrategy,
  parseOdds,
  parseStake,
  validationError,
} from '@bookie/core';
import type { WhiteLabel } from '../tenants/index.js';
import { decideBet } from './decide-bet.js';
import type { DecisionDeps } from './deps.js';
import type { PlacementRequest } from './validate-placement.js';

/** Parses one `selection` query value: `sport_event_id/market_id/odd_id/value`, each part percent-encoded (D35). */
export function parseSelectionParam(raw: string, field: string): PlacementRequest['selections'][number] {
  const parts = raw.split('/');
  if (parts.length !== 4 || parts.some((p) => p === '')) {
    throw validationError(field, 'must be sport_event_id/market_id/odd_id/value');
  }
  let decoded: string[];
  try {
    decoded = parts.map((p) => decodeURIComponent(p));
  } catch {
    throw validationError(field, 'has a malformed percent-encoding');
  }
  const [sport_event_id, market_id, odd_id, value] = decoded as [string, string, string, string];
  return { sport_event_id, market_id, odd_id, odds: parseOdds(value, `${field}.value`, { maxDecimals: 12 }) };
}

/** Parses the query of `GET /restrictions` into a placement request; throws validation_error naming the field. */
export function parseRestrictionsQuery(q: RestrictionsQuery): PlacementRequest {
  const betType = betTypeFromMtsCode(Number(q.type_code), 'query.type_code');
  const raw = Array.isArray(q.selection) ? q.selection : [q.selection];
  const selections = raw.map((s, i) => parseSelectionParam(s, `query.selection[${i}]`));
  if (betType === 'system' && !q.system_sizes) {
    throw validationError('query.system_sizes', 'a system bet needs its sizes');
  }
  // given for any type, the sizes are checked as POST /bets checks type.system_sizes ([1], [n], the system's)
  const typeSizes = q.system_sizes ? q.system_sizes.split(',').map(Number) : undefined;
  return {
    betType,
    systemSizes: betType === 'system' && typeSizes ? typeSizes : [],
    ...(typeSizes ? { typeSizes } : {}),
    ...(q.stake !== undefined ? { stake: parseStake(q.stake, 'query.stake') } : {}),
    currency: q.currency_code,
    oddsStrategy: Number(q.odds_strategy ?? '1') as OddsStrategy,
    selections,
  };
}

/**
 * `GET /restrictions` (D35, the calculation before a placement): exactly what placing this bet now would decide —
 * the one decision on the replica, the exposure, the player's group and the limits. It records no bet, exposure or
 * bet time; it does record a player's first request (spec 03 VIP: the first calculation or placement of a player
 * counts), so the group that request gives — raised by `recommended_max_payout` — is the player's from then on, and
 * later values are ignored. Without a stake, no stake restriction is reported and `max_bet` is the largest
 * acceptable stake.
 *
 * @throws DomainError validation_error naming the query field; for a currency the white label does not offer.
 */
export async function getRestrictions(
  deps: DecisionDeps & { whiteLabels: { get(id: string): Promise<WhiteLabel> } },
  whiteLabelId: string,
  q: RestrictionsQuery,
): Promise<RestrictionsAnswer> {
  const req = parseRestrictionsQuery(q);
  const wl = await deps.whiteLabels.get(whiteLabelId);
  if (!wl.currencies.includes(req.currency)) {
    throw validationError('query.currency_code', `the white label does not offer ${req.currency}`);
  }
  const decision = await decideBet(deps, {
    mode: 'restrictions',
    whiteLabel: wl,
    playerId: q.player_id,
    bet: req,
    ...(q.recommended_max_payout !== undefined
      ? { recommendedMaxPayout: { value: q.recommended_max_payout, field: 'query.recommended_max_payout' } }
      : {}),
    clientCreatedAt: q.created_at,
  });
  const money = (v: ReturnType<typeof mul>) => ({ value: formatMoney(v), currency_code: req.currency });
  return {
    restrictions: decision.restrictions as RestrictionsAnswer['restrictions'],
    max_bet: decision.maxBet !== undefined ? money(decision.maxBet) : null,
    max_payout: decision.maxBet !== undefined ? money(mul(decision.maxBet, decision.totalOdds)) : null,
    bet_delay_s: String(decision.delayS),
  };
}
