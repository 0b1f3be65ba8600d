import {
  type BuilderInnerResult,
  builderSettlementLeg,
  builderSettlementResult,
  format,
  ODD_STATUS,
  type OddStatus,
  parseDecimal,
  type SettlementLeg,
} from '@bookie/core';
import type { BetBuilder, BuilderRow, SelectionRow } from '../../bets/index.js';

const exact = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 12 });

function innerResults(legs: readonly SelectionRow[], field: string): BuilderInnerResult[] {
  return legs.map((l, i) => {
    const r: BuilderInnerResult = { status: l.status as OddStatus };
    if (l.dead_heat !== null && l.status === ODD_STATUS.WIN)
      r.deadHeat = exact(l.dead_heat, `${field}.legs[${i}].dead_heat`);
    return r;
  });
}

/**
 * A bet builder with its inner legs' new results and the builder's own result columns recomputed from them by core's
 * rule (D63; docs/adr/0044-bet-builder-settlement.md): status and dead heat from `builderSettlementResult`; the
 * reason of the leg that decided it (the first lost leg, else the first not resulted, else the first refunded,
 * cancelled or half-resulted leg; none when it won); the source `manual` when an operator set a leg, else `rollback`
 * when a rollback caught one, else `feed`.
 */
export function builderWithLegs(builder: BetBuilder, legs: SelectionRow[]): BetBuilder {
  const field = `builders[${builder.row.builder}]`;
  const r = builderSettlementResult(innerResults(legs, field), field);
  const deciding =
    r.status === ODD_STATUS.WIN
      ? undefined
      : r.status === ODD_STATUS.LOSS || r.status === ODD_STATUS.NOT_RESULTED
        ? legs.find((l) => l.status === r.status)
        : legs.find((l) => l.status !== ODD_STATUS.WIN);
  const source: BuilderRow['result_source'] = legs.some((l) => l.result_source === 'manual')
    ? 'manual'
    : legs.some((l) => l.result_source === 'rollback')
      ? 'rollback'
      : 'feed';
  return {
    row: {
      ...builder.row,
      status: r.status,
      dead_heat: r.deadHeat ? format(r.deadHeat, 12) : null,
      status_reason: deciding?.status_reason ?? '',
      result_source: source,
    },
    legs,
  };
}

/** A bet builder as one selection of the bet arithmetic: its accepted combined odds and its inner legs' results (D63). */
export function builderLeg(builder: BetBuilder): SettlementLeg {
  const field = `builders[${builder.row.builder}]`;
  return builderSettlementLeg(
    exact(builder.row.odds, `${field}.odds`),
    innerResults(builder.legs, field),
    field,
  );
}

/** True when a builder's stored result columns differ from `next`'s (what the bets repository must write). */
export function builderResultChanged(before: BuilderRow, next: BuilderRow): boolean {
  return (
    before.status !== next.status ||
    before.dead_heat !== next.dead_heat ||
    before.status_reason !== next.status_reason ||
    before.result_source !== next.result_source
  );
}
