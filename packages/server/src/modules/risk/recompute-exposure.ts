import { formatMoney, parseDecimal } from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { exposureDifferences, openBetsWithExposure } from './exposure.repo.js';
import { legExposures } from './leg-units.js';

/** What `bookie risk recompute` found (D37): every difference, none when exposure has not drifted. */
export interface RecomputeReport {
  /** Open bets checked. */
  bets_checked: number;
  /** Open bets accepted without the risk engine (no leg exposure kept). */
  bets_without_exposure: number;
  /** Outcomes whose stored exposure differs from Σ of their open bets' leg exposures. */
  outcome_differences: Array<{
    white_label_id: string;
    phase: string;
    sport_event_id: string;
    market_id: string;
    odd_id: string;
    stored: string;
    from_bets: string;
  }>;
  /** Bets whose stored leg exposures differ from core's apportioning of the bet (stake, total odds, legs' odds). */
  bet_differences: Array<{ bet_id: string; stored: (string | null)[]; recomputed: string[] }>;
  /** True when nothing differs. */
  ok: boolean;
}

const dec = (s: string, field: string) => parseDecimal(s, { field, maxDecimals: 12 });

/**
 * Recomputes exposure from the bets and compares (D37): each open bet's leg exposures again from its stored stake,
 * total odds, legs' odds and EUR rate with core's apportioning, and each outcome's stored exposure against Σ of its
 * open bets' legs. Reads only.
 */
export async function recomputeExposure(db: Executor, pageSize = 1000): Promise<RecomputeReport> {
  const report: RecomputeReport = {
    bets_checked: 0,
    bets_without_exposure: 0,
    outcome_differences: [],
    bet_differences: [],
    ok: true,
  };
  let after: string | null = null;
  for (;;) {
    const page = await openBetsWithExposure(db, after, pageSize);
    if (page.length === 0) break;
    for (const b of page) {
      report.bets_checked++;
      if (b.rate === null) {
        report.bets_without_exposure++;
        continue;
      }
      const parts = legExposures({
        stake: dec(b.stake, 'stake'),
        totalOdds: dec(b.total_odds, 'total_odds'),
        legOdds: b.odds,
        builders: b.builders,
        eurRate: dec(b.rate, 'eur_rate'),
      });
      const stored = b.amounts.map((a) => (a === null ? null : formatMoney(dec(a, 'amount'))));
      if (parts.some((p, i) => p !== stored[i])) {
        report.bet_differences.push({ bet_id: b.id, stored, recomputed: parts });
      }
    }
    after = page[page.length - 1]?.id ?? null;
  }
  report.outcome_differences = (await exposureDifferences(db)).map((d) => ({
    ...d.key,
    stored: formatMoney(dec(d.stored, 'stored')),
    from_bets: formatMoney(dec(d.fromBets, 'from_bets')),
  }));
  report.ok = report.outcome_differences.length === 0 && report.bet_differences.length === 0;
  return report;
}
