import type { SelectionNames } from '@bookie/contracts';

/** A new selection (a plain odds selection, or an inner leg of a builder), as placement creates it. */
export interface NewSelection {
  sportEventId: string;
  marketId: string;
  oddId: string;
  requestedOdds: string;
  odds: string;
  oddUpdatedAt: Date;
  matchStatus: number;
  eventInfo: Record<string, unknown>;
  /** What the selection is called at placement (the history shows it after the event left the book). */
  names?: SelectionNames | null;
}

/**
 * A new bet builder: its sport event, the combined odds asked for and accepted, the model's probabilities and the
 * margin it was priced with (exact decimal strings), and its inner legs (`requestedOdds` = `odds` = the feed's odds of
 * the leg at placement: information only, the builder is priced as a whole).
 */
export interface NewBuilder {
  sportEventId: string;
  requestedOdds: string;
  odds: string;
  probability: string;
  refundProbability: string;
  margin: string;
  legs: readonly NewSelection[];
}

/**
 * A bet's selections in the order of their idx: plain platform selections take idx 0..n-1, then the inner legs of
 * builder 0, of builder 1, … the following idx with their builder's index, then the foreign selections (an MTS mixed
 * combo) — the order of the bet's risk legs, whose exposure rows share these idx.
 */
function inIdxOrder<S extends NewSelection & { foreignId?: string | null }>(
  selections: readonly S[],
  builders: readonly NewBuilder[],
): Array<{ s: S | NewSelection; builder: number | null }> {
  const out: Array<{ s: S | NewSelection; builder: number | null }> = [];
  for (const s of selections) if (!s.foreignId) out.push({ s, builder: null });
  builders.forEach((b, i) => {
    for (const leg of b.legs) out.push({ s: leg, builder: i });
  });
  for (const s of selections) if (s.foreignId) out.push({ s, builder: null });
  return out;
}

/** The `bet_builder` rows of one bet's builders. */
function builderColumns(betId: string, builders: readonly NewBuilder[]) {
  return builders.map((b, i) => ({
    bet_id: betId,
    builder: i,
    sport_event_id: b.sportEventId,
    requested_odds: b.requestedOdds,
    odds: b.odds,
    probability: b.probability,
    refund_probability: b.refundProbability,
    margin: b.margin,
  }));
}

/**
 * The `bet_selection` rows of one bet, in the order of {@link inIdxOrder}, as the objects of the JSON document the
 * selection insert reads, and its `bet_builder` rows.
 */
export function selectionRows(
  betId: string,
  selections: readonly (NewSelection & { foreignId?: string | null })[],
  builders: readonly NewBuilder[],
) {
  return {
    selections: inIdxOrder(selections, builders).map(({ s, builder }, idx) => {
      const foreignId = 'foreignId' in s ? (s.foreignId ?? null) : null;
      return {
        bet_id: betId,
        idx,
        sport_event_id: s.sportEventId,
        market_id: s.marketId,
        odd_id: s.oddId,
        requested_odds: s.requestedOdds,
        odds: s.odds,
        odd_updated_at: s.oddUpdatedAt,
        match_status: s.matchStatus,
        event_info: s.eventInfo,
        names: s.names ?? null,
        builder,
        foreign_id: foreignId,
        result_source: foreignId ? ('manual' as const) : ('feed' as const),
      };
    }),
    builders: builderColumns(betId, builders),
  };
}
