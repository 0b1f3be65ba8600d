/**
 * Settlement of a bet builder (docs/adr/0044-bet-builder-settlement.md; the bet builder settlement rule of
 * docs/decisions.md): the result of a builder from its inner legs' odd statuses, and the builder as ONE selection of
 * the single / express / system arithmetic of settlement.ts, at its combined odds.
 *
 * The rule (the one docs/adr/0042-bet-builder-pricing.md prices): a builder is
 * - **lost** (2) when any inner leg lost — even while others are not resulted yet, its status is then 2;
 * - **not resulted** (0) when no inner leg lost and some inner leg is not resulted;
 * - **refunded whole** (stake back, factor 1) when no leg lost and some leg is refunded (5), cancelled (6), refunded
 *   manually (7) or has a half result (3, 4: a quarter line the model never priced, so the combined odds no longer
 *   describe the bet). The builder's status is then 7 when a leg was refunded manually, else 6 when a leg was
 *   cancelled, else 5;
 * - **won** (1) when every leg won, at the combined odds; a dead heat on inner wins multiplies into one dead-heat
 *   factor Π h of the builder (the fraction of the stake that won).
 *
 * @packageDocumentation
 */
import { compare, mul, ONE, type Rational } from './decimal.js';
import { validationError } from './errors.js';
import { legFactor, type SettlementLeg } from './settlement.js';
import { isOddStatus, ODD_STATUS, type OddStatus } from './statuses.js';

/** One inner leg of a builder as settlement sees it: its odd status and an optional dead-heat factor on a win. */
export interface BuilderInnerResult {
  /** Odd status 0–7 of the inner odd (the feed contract, "Odd status"; 7 refunded manually). */
  status: OddStatus;
  /** Dead-heat factor h in (0, 1], only on a win. */
  deadHeat?: Rational | undefined;
}

/** A builder's result from its inner legs: the builder's own odd status and, on a won builder, its dead heat. */
export interface BuilderSettlementResult {
  /** 0 not resulted, 1 won, 2 lost, 5 refunded, 6 cancelled, 7 refunded manually. */
  status: OddStatus;
  /** Π of the inner legs' dead-heat factors when the builder won and some inner win had one. */
  deadHeat?: Rational;
}

/**
 * The result of a builder from its inner legs' results (the bet builder settlement rule; module comment).
 *
 * @param field - field path for errors (default `builder`).
 * @throws DomainError `validation_error` naming `${field}.legs` when there is no leg, `${field}.legs[i].status` for a
 * status outside 0–7, `${field}.legs[i].dead_heat` for a dead heat outside (0, 1] or on a leg that did not win.
 */
export function builderSettlementResult(
  legs: readonly BuilderInnerResult[],
  field = 'builder',
): BuilderSettlementResult {
  if (legs.length === 0) throw validationError(`${field}.legs`, 'a bet builder has at least one leg');
  legs.forEach((l, i) => {
    const f = `${field}.legs[${i}]`;
    if (!isOddStatus(l.status))
      throw validationError(`${f}.status`, `must be an odd status 0–7, got ${String(l.status)}`);
    if (l.deadHeat !== undefined) {
      if (l.status !== ODD_STATUS.WIN)
        throw validationError(`${f}.dead_heat`, 'applies only to a win (status 1)');
      if (l.deadHeat.num <= 0n || compare(l.deadHeat, ONE) > 0)
        throw validationError(`${f}.dead_heat`, 'must be a factor greater than 0 and at most 1');
    }
  });
  const has = (s: OddStatus) => legs.some((l) => l.status === s);
  if (has(ODD_STATUS.LOSS)) return { status: ODD_STATUS.LOSS };
  if (has(ODD_STATUS.NOT_RESULTED)) return { status: ODD_STATUS.NOT_RESULTED };
  if (legs.some((l) => l.status !== ODD_STATUS.WIN)) {
    if (has(ODD_STATUS.REFUNDED_MANUALLY)) return { status: ODD_STATUS.REFUNDED_MANUALLY };
    if (has(ODD_STATUS.CANCELLED)) return { status: ODD_STATUS.CANCELLED };
    return { status: ODD_STATUS.REFUNDED };
  }
  const heats = legs.flatMap((l) => (l.deadHeat ? [l.deadHeat] : []));
  if (heats.length === 0) return { status: ODD_STATUS.WIN };
  return { status: ODD_STATUS.WIN, deadHeat: heats.reduce(mul, ONE) };
}

/**
 * A builder as one selection of settlement (settlement.ts `SettlementLeg`): its combined odds with the status (and
 * dead heat) of {@link builderSettlementResult}, so `settleBet`, `exactPayout` and `legFactor` treat it like any selection
 * (a voided builder counts as a void leg: a bet whose every selection is void pays back its stake).
 *
 * @param odds - the builder's combined odds at placement (≥ 1).
 * @throws DomainError `validation_error` as {@link builderSettlementResult}.
 */
export function builderSettlementLeg(
  odds: Rational,
  legs: readonly BuilderInnerResult[],
  field = 'builder',
): SettlementLeg {
  const r = builderSettlementResult(legs, field);
  return r.deadHeat ? { odds, status: r.status, deadHeat: r.deadHeat } : { odds, status: r.status };
}

/**
 * The settlement factor of a builder (payout per unit of stake as one selection): its combined odds d when every leg
 * won (d·Π h under dead heat), 0 when a leg lost, 1 when refunded whole.
 *
 * @throws DomainError `not_resulted` when no leg lost and some leg is not resulted; `validation_error` as
 * {@link builderSettlementResult}.
 */
export function builderFactor(
  odds: Rational,
  legs: readonly BuilderInnerResult[],
  field = 'builder',
): Rational {
  return legFactor(builderSettlementLeg(odds, legs, field), field);
}
