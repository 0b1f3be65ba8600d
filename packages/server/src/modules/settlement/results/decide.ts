import {
  BET_STATUS,
  type Boost,
  compare,
  div,
  formatMoney,
  ODD_STATUS,
  type OddStatus,
  parseDecimal,
  type Rational,
  type SettlementLeg,
  settleBet,
} from '@bookie/core';
import type { Bet, BetBuilder, BetRow, SelectionRow } from '../../bets/index.js';
import { builderLeg } from './builders.js';
import { remainingStake } from './remaining-stake.js';

/** What the arithmetic of a bet needs beyond the bet: the caps in the bet's currency (DECISIONS D17). */
export interface SettlementLimits {
  /** 50,000 EUR in the bet currency (`expressCapInCurrency`). */
  expressCap: Rational;
  /** The white label's max payout, when it has one. */
  maxPayout?: Rational | undefined;
}

/** A computed settlement, amounts written with 6 decimals (D1). */
export interface Outcome {
  /** Gross payout (before a freebet deduction). */
  payout: string;
  /** The `/bet/settle` amount. */
  settleAmount: string;
  settleType: 1 | 2 | 3;
  /** D6: 3 settled, 5 refunded (every leg void), 6 refunded manually (every leg void, one by an operator). */
  settleStatus: 3 | 5 | 6;
}

/** What a bet must do now. */
export type Transition =
  | { kind: 'none' }
  /** accepted or unsettled → settled: `/bet/settle`. */
  | { kind: 'settle'; outcome: Outcome }
  /** settled → unsettled (a leg is not resulted any more): `/bet/unsettle` of the last settle amount (D12). */
  | { kind: 'unsettle' }
  /** settled → settled with another result: `/bet/unsettle` of the last amount, then `/bet/settle` (D12). */
  | { kind: 'resettle'; outcome: Outcome };

const exact = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 12 });

function legOf(s: SelectionRow): SettlementLeg {
  const leg: SettlementLeg = { odds: exact(s.odds, 'odds'), status: s.status as OddStatus };
  if (s.dead_heat !== null && s.status === ODD_STATUS.WIN) leg.deadHeat = exact(s.dead_heat, 'dead_heat');
  return leg;
}

/**
 * The settlement of a bet whose selections are all resulted (DECISIONS D3, D15–D19) through core `settleBet`:
 * a freebet bet's stake is its freebet amount (D18); a boosted bet's multiplier is total / base odds (D19). Each bet
 * builder is one selection after the plain ones, at its combined odds with the result of its inner legs (D63).
 *
 * @throws DomainError not_resulted when a selection or a builder has status 0.
 */
export function computeOutcome(
  row: BetRow,
  selections: readonly SelectionRow[],
  limits: SettlementLimits,
  builders: readonly BetBuilder[] = [],
): Outcome {
  const stake = remainingStake(row);
  let boost: Boost | undefined;
  if (row.boost_multiplier !== null) {
    // bonuses: the exact multiplier the bet was accepted with (total_odds is rounded to 12 decimals)
    boost = { multiplier: exact(row.boost_multiplier, 'boost_multiplier') };
  } else if (row.boost_id) {
    const total = exact(row.total_odds, 'total_odds');
    const base = exact(row.base_odds, 'base_odds');
    if (base.num > 0n && compare(total, base) > 0) boost = { multiplier: div(total, base) };
  }
  const legs = [...selections.map(legOf), ...builders.map(builderLeg)];
  const s = settleBet({
    betType: row.bet_type,
    stake,
    legs,
    systemSizes: row.bet_type === 'system' ? row.system_sizes : undefined,
    expressCap: limits.expressCap,
    maxPayout: limits.maxPayout,
    boost,
    freebetAmount: row.freebet_id ? stake : undefined,
  });
  const manual = legs.some((l) => l.status === ODD_STATUS.REFUNDED_MANUALLY);
  return {
    payout: formatMoney(s.payout),
    settleAmount: formatMoney(s.settleAmount),
    settleType: s.settleType,
    settleStatus: s.voided
      ? manual
        ? BET_STATUS.REFUNDED_MANUALLY
        : BET_STATUS.REFUNDED
      : BET_STATUS.SETTLED,
  };
}

/**
 * What a bet would settle for if every selection not resulted yet won at its accepted odds (open exposure), the
 * inner legs of its builders included (a builder with a lost leg stays lost, D63).
 */
export function potentialOutcome(
  bet: Pick<Bet, 'row' | 'selections' | 'builders'>,
  limits: SettlementLimits,
): Outcome {
  const won = (s: SelectionRow): SelectionRow =>
    s.status === ODD_STATUS.NOT_RESULTED ? { ...s, status: ODD_STATUS.WIN, dead_heat: null } : s;
  return computeOutcome(
    bet.row,
    bet.selections.map(won),
    limits,
    bet.builders.map((b) => ({ ...b, legs: b.legs.map(won) })),
  );
}

/** True when every selection is resulted (no odd status 0), and every builder (D63: one lost leg results it). */
export function allResulted(
  selections: readonly SelectionRow[],
  builders: readonly BetBuilder[] = [],
): boolean {
  return (
    selections.every((s) => s.status !== ODD_STATUS.NOT_RESULTED) &&
    builders.every((b) => builderLeg(b).status !== ODD_STATUS.NOT_RESULTED)
  );
}

const money = (v: string | null) => (v === null ? null : formatMoney(exact(v, 'amount')));

/**
 * The transition of a bet after its selections changed (spec 01 "States and transitions", DECISIONS D6, D12):
 * - accepted / unsettled with every selection resulted → settle;
 * - settled with a selection back to 0 → unsettle;
 * - settled with another result — a selection's status or dead heat changed, or the amount, type or code differ
 *   (e.g. a cap changed) → unsettle then settle;
 * - anything else → nothing. Recomputing an unchanged bet gives `none`: settlement is idempotent.
 *
 * @param selectionsChanged - true when a selection's status or dead heat differs from what the bet was settled on
 * (an inner leg of a builder included).
 * @param builders - the bet's builders with their inner legs' results now (none by default).
 */
export function decideTransition(
  row: BetRow,
  selections: readonly SelectionRow[],
  selectionsChanged: boolean,
  limits: SettlementLimits,
  builders: readonly BetBuilder[] = [],
): Transition {
  const resulted = allResulted(selections, builders);
  switch (row.state) {
    case 'accepted':
    case 'unsettled':
      return resulted
        ? { kind: 'settle', outcome: computeOutcome(row, selections, limits, builders) }
        : { kind: 'none' };
    case 'settled': {
      if (!resulted) return { kind: 'unsettle' };
      const outcome = computeOutcome(row, selections, limits, builders);
      const same =
        !selectionsChanged &&
        money(row.settle_amount) === outcome.settleAmount &&
        money(row.payout) === outcome.payout &&
        row.settle_type === outcome.settleType &&
        (row.settle_status ?? BET_STATUS.SETTLED) === outcome.settleStatus;
      return same ? { kind: 'none' } : { kind: 'resettle', outcome };
    }
    default:
      return { kind: 'none' };
  }
}
