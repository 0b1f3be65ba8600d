import {
  type BonusBet,
  boostRestrictions,
  type ConditionBetBuilder,
  type ConditionLeg,
  formatMoney,
  freebetRestrictions,
  insuranceRestrictions,
  parseConditions,
  parseDecimal,
  parseValueRange,
  type Rational,
  type Restriction,
  restriction,
  withKnownContext,
} from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import type { Bet, EventInfo } from '../bets/index.js';
import { boostUseOf, findBetBoost, findFreebet, findInsurance, isBonusId } from './bonuses.repo.js';
import { betBoostView, freebetView, insuranceView } from './views.js';

const exact = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 12 });

/**
 * The bet as the bonus rules see it: legs with their sport event facts (captured at placement) and accepted odds;
 * each bet builder one leg at its combined odds (`acceptedBuilderOdds[k]`, else as stored) with its inner legs'
 * count and market types (D64).
 */
export function bonusBetOf(
  bet: Bet,
  acceptedOdds: readonly Rational[],
  acceptedBuilderOdds: readonly Rational[] = [],
): BonusBet {
  const r = bet.row;
  const betBuilders = bet.builders.flatMap((b, k): ConditionBetBuilder[] => {
    const first = b.legs[0];
    if (!first) return [];
    const info = first.event_info as unknown as EventInfo;
    return [
      {
        odds: acceptedBuilderOdds[k] ?? exact(b.row.odds, 'odds'),
        sportId: info.sport_id,
        tournamentId: info.tournament_id,
        sportEventId: b.row.sport_event_id,
        marketTypeId: info.market_type,
        competitorIds: info.competitors.map((c) => c.id),
        innerCount: b.legs.length,
        innerMarketTypeIds: b.legs.map((l) => (l.event_info as unknown as EventInfo).market_type),
      },
    ];
  });
  return {
    betBuilders,
    betType: r.bet_type,
    systemSizes: r.system_sizes,
    stake: exact(r.stake, 'stake'),
    currency: r.currency,
    selections: bet.selections.map((s, i): ConditionLeg => {
      const info = s.event_info as unknown as EventInfo;
      return {
        odds: acceptedOdds[i] ?? exact(s.odds, 'odds'),
        sportId: info.sport_id,
        tournamentId: info.tournament_id,
        sportEventId: s.sport_event_id,
        marketTypeId: info.market_type,
        competitorIds: info.competitors.map((c) => c.id),
      };
    }),
  };
}

/**
 * Placement hook at validation (spec 01 "Freebet conditions", "Bet insurance conditions"): every restriction
 * the bet's bonuses raise, evaluated by core on the accepted odds:
 * - freebet: `freebet_status` unless it is reserved for this bet (unknown, another player's, reserved by another bet,
 *   used, cancelled, expired); otherwise currency (`freebet_not_applicable`), stake = amount (`freebet_amount`) and
 *   conditions (`freebet_not_applicable` naming the condition);
 * - insurance: `insurance_status` unless available (or expired, unknown…); currency, freebet bets and conditions
 *   (`insurance_not_applicable`); `stake_amount_range` (`insurance_value`);
 * - boost: `bonus_not_applicable` when unknown, not the player's, expired or used up (reason), or a condition fails.
 * Contexts carry the first selection's `sport_event_id`, as placement's other restrictions do.
 */
export async function checkBonuses(
  db: Executor,
  input: {
    bet: Bet;
    acceptedOdds: readonly Rational[];
    /** The combined odds each builder is accepted at (absent: as stored on the builder). */
    acceptedBuilderOdds?: readonly Rational[];
    now: number;
  },
): Promise<Restriction[]> {
  const { bet, now } = input;
  const r = bet.row;
  if (r.freebet_id === null && r.insurance_id === null && r.boost_id === null) return [];
  const facts = bonusBetOf(bet, input.acceptedOdds, input.acceptedBuilderOdds);
  const out: Restriction[] = [];

  if (r.freebet_id !== null) {
    const id = r.freebet_id;
    const f = isBonusId(id) ? await findFreebet(db, r.white_label_id, id) : undefined;
    if (!f || f.player_id !== r.player_id)
      out.push(restriction('freebet_status', { freebet_id: id, status: 'not_found' }));
    else if (f.bet_id !== r.id) {
      const status = freebetView(f, now).status;
      // available but not ours: it was not available when the bet was created (reserved by another bet since freed)
      out.push(
        restriction('freebet_status', {
          freebet_id: id,
          status: status === 'available' ? 'unavailable' : status,
        }),
      );
    } else {
      const terms = {
        id,
        currency: f.currency_code,
        amount: exact(f.amount, 'amount'),
        conditions: parseConditions(f.conditions),
      };
      out.push(...freebetRestrictions(terms, facts, formatMoney));
    }
  }

  if (r.insurance_id !== null) {
    const id = r.insurance_id;
    const i = isBonusId(id) ? await findInsurance(db, r.white_label_id, id) : undefined;
    if (!i || i.player_id !== r.player_id) {
      out.push(restriction('insurance_status', { insurance_id: id, status: 'not_found' }));
    } else {
      const status = insuranceView(i, now).status;
      if (status !== 'available') out.push(restriction('insurance_status', { insurance_id: id, status }));
      else {
        const range = i.stake_amount_range;
        const terms = {
          id,
          currency: i.currency_code,
          conditions: parseConditions(i.conditions),
          ...(range
            ? { stakeAmountRange: parseValueRange(range, 'stake_amount_range', { maxDecimals: 6 }) }
            : {}),
        };
        out.push(...insuranceRestrictions(terms, { ...facts, freebet: r.freebet_id !== null }));
      }
    }
  }

  if (r.boost_id !== null) {
    const id = r.boost_id;
    const b = isBonusId(id) ? await findBetBoost(db, r.white_label_id, id) : undefined;
    const na = (reason: string) => restriction('bonus_not_applicable', { bonus_id: id, reason });
    if (!b || (b.player_id !== null && b.player_id !== r.player_id)) out.push(na('not_found'));
    else if ((await boostUseOf(db, r.id))?.boost_id !== id) {
      const status = betBoostView(b, now).status;
      out.push(na(status === 'active' ? 'exhausted' : status));
    } else out.push(...boostRestrictions({ id, conditions: parseConditions(b.conditions) }, facts));
  }
  const first = bet.selections[0]?.sport_event_id;
  return first === undefined ? out : withKnownContext(out, { sport_event_id: first });
}
