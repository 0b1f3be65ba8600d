/** The replay report as text for a terminal. */
import { format, parseDecimal } from '@bookie/core';
import { formatBuilderCalibration } from './builder-calibration.js';
import { formatInPlayReport } from './in-play-report.js';
import { LEAGUES } from './markets.js';
import type { ReplayReport } from './replay-report.js';
import { formatRiskReport } from './risk-report.js';

/** A money string with 2 decimals, rounded half up (display only). */
const two = (v: string) =>
  format(parseDecimal(v, { field: 'amount', maxDecimals: 12, allowNegative: true }), 2);

/** The report as text for a terminal. */
export function formatReport(r: ReplayReport): string {
  const out: string[] = [];
  const seasons = r.seasons
    .map((s) => `${s.file} (${LEAGUES[s.league]?.name ?? s.league} ${s.season}, ${s.matches} matches)`)
    .join(', ');
  out.push(`Replay of ${seasons}, seed ${r.seed}`);
  out.push('');
  out.push(
    `Fixtures: ${r.fixtures.matches} matches, markets 1X2 ${r.fixtures.markets['1x2']}, total ${r.fixtures.markets.total}, ` +
      `Asian handicap ${r.fixtures.markets.asian_handicap}` +
      (r.fixtures.skipped_markets ? ` (${r.fixtures.skipped_markets} skipped for missing odds)` : ''),
  );
  out.push(
    `Odd results: ${Object.entries(r.fixtures.odd_statuses)
      .map(([s, n]) => `${STATUS_NAME[s] ?? s} ${n}`)
      .join(', ')}`,
  );
  out.push('');
  const b = r.bets;
  out.push(
    `Bets: ${b.placed} placed (${b.by_type.single} singles, ${b.by_type.express} expresses, ${b.by_type.system} systems), ` +
      `${b.accepted} accepted, ${b.declined} declined, ${b.place_errors} place errors, ${b.force_declined} force declined` +
      (b.not_placed ? `, ${b.not_placed} not placed` : ''),
  );
  const byR = Object.entries(b.declined_by_restriction).sort((x, y) => y[1] - x[1]);
  if (byR.length) out.push(`  declined by restriction: ${byR.map(([t, n]) => `${t} ${n}`).join(', ')}`);
  if (r.risk) out.push(...formatRiskReport(r.risk));
  if (r.in_play) out.push(...formatInPlayReport(r.in_play, r.currency));
  const s = r.settled;
  out.push(
    `Settled: ${s.bets} (win ${s.by_settle_type.win}, refund ${s.by_settle_type.refund}, lost ${s.by_settle_type.lost}); ` +
      `selections ${Object.entries(s.selection_statuses)
        .map(([k, n]) => `${STATUS_NAME[k] ?? k} ${n}`)
        .join(', ')}`,
  );
  out.push('');
  out.push(
    `  ${'market'.padEnd(16)}${'bets'.padStart(7)}${'stakes'.padStart(16)}${'payouts'.padStart(16)}${'GGR'.padStart(15)}${'margin'.padStart(9)}`,
  );
  for (const m of r.markets) {
    out.push(
      `  ${m.market.padEnd(16)}${String(m.bets).padStart(7)}${two(m.stakes).padStart(16)}${two(m.payouts).padStart(16)}` +
        `${two(m.ggr).padStart(15)}${(m.margin_pct === null ? '-' : `${m.margin_pct}%`).padStart(9)}`,
    );
  }
  out.push(
    `  (${r.currency}; stakes and payouts of settled bets${r.in_play ? ', cash-outs paid counted as payouts' : ''}; GGR = stakes − payouts)`,
  );
  out.push('');
  const c = r.reconciliation;
  const mark = (ok: boolean) => (ok ? 'ok' : 'FAILED');
  out.push(`Reconciliation: ${c.ok ? 'OK' : 'FAILED'}`);
  out.push(
    `  wallet balances = deposits − stakes + payouts${c.cash_outs_match !== undefined ? ' + cash-outs' : ''} of Bookie's bets (${c.players} players): ${mark(c.wallet_balances_match)}`,
  );
  out.push(
    `  wallet ledger per bet = Bookie's stake and settle amount: ${mark(c.wallet_ledger_matches_bets)}`,
  );
  if (c.cash_outs_match !== undefined) {
    out.push(
      `  cash-outs paid (${two(c.cash_out_paid ?? '0')}) = the wallet's cash-out credits = Bookie's cash-out callbacks: ${mark(c.cash_outs_match)}`,
    );
  }
  out.push(`  no holds left at the wallet (held ${two(c.wallet_held)}): ${mark(c.no_holds_left)}`);
  out.push(`  every accepted bet settled: ${mark(c.every_accepted_bet_settled)}`);
  out.push(
    `  Bookie's reconcile report (stakes ${two(c.bookie.stakes_accepted)}, net payout ${two(c.bookie.net_payout)}, ` +
      `open ${c.bookie.open_bets}, mismatches ${c.bookie.ledger_mismatches}): ${mark(c.bookie_report_ok)}`,
  );
  out.push(
    `  wallet ledger invariant: ${mark(c.wallet_invariant_ok)}; outbox drained: ${mark(c.outbox_drained)}`,
  );
  for (const p of c.problems) out.push(`  ! ${p}`);
  if (r.reported) {
    const m = r.reported.mts;
    out.push('');
    out.push(
      `Reported bets: risk decision ${m.reported} (${m.accepted} accepted, ${m.declined} declined, ` +
        `${m.mixed_combos} mixed combos, ${m.withdrawn} declined by the partner, ${m.settled} settled; callbacks ` +
        `match: ${m.callbacks_match ? 'ok' : 'FAILED'}); advice ${r.reported.advisory.reported} ` +
        `(${r.reported.advisory.advised} with advice, ${r.reported.advisory.updated} settled by the partner)`,
    );
  }
  out.push('');
  out.push(...formatBuilderCalibration(r.builder_calibration));
  out.push('');
  out.push(
    `Time: ${r.timing.replay_s.toFixed(1)} s replay (${r.timing.trading_commands} trading commands, ` +
      `${b.placed} bets, ${r.timing.bets_per_s.toFixed(1)} bets/s), ${r.timing.elapsed_s.toFixed(1)} s in all`,
  );
  return out.join('\n');
}

const STATUS_NAME: Record<string, string> = {
  '0': 'open',
  '1': 'win',
  '2': 'loss',
  '3': 'half win',
  '4': 'half loss',
  '5': 'refund',
  '6': 'cancelled',
  '7': 'refunded manually',
};
