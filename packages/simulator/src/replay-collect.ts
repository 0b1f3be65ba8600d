/**
 * The end of a replay: every bet's final state, the wallets, Bookie's own report, and the replay report built of them.
 */
import type { BetView } from '@bookie/contracts';
import { add, formatMoney, parseDecimal, ZERO } from '@bookie/core';
import type { WalletClient } from './clients.js';
import { mapLimit } from './pacing.js';
import type { ReplayResult } from './replay-options.js';
import type { ReplayRun } from './replay-run.js';
import type { TimelineOutcome } from './replay-timeline.js';
import { type BetOutcome, betsOutLine, buildReport } from './report.js';
import { collectRiskReport } from './risk-report.js';

/** Reads what the run left (bets, wallets, Bookie's reconciliation, risk, reported bets) and builds the report. */
export async function collectReport(
  run: ReplayRun,
  timeline: TimelineOutcome,
  replayMs: number,
): Promise<ReplayResult> {
  const {
    target,
    options,
    started,
    seed,
    currency,
    sessions,
    deposits,
    reported,
    windowFrom,
    progress,
    report,
  } = run;
  const { script, population, everyone } = run.planned;
  const { base, agent, partner, frame, wallet, admin } = run.clients;
  const { outcomes, liveOutcomes, cashOuts, inPlayCommands, timelineMs } = timeline;
  const inPlay = options.inPlay;
  progress.phase = 'collecting';
  report();
  const finalBets = new Map<string, BetView>();
  // every bet, the live ones after the plan's (by match, then by their order in the match)
  liveOutcomes.sort((a, b) => a.live.match - b.live.match || a.plan.key.localeCompare(b.plan.key));
  const allOutcomes: BetOutcome[] = [...outcomes, ...liveOutcomes];
  const bettors = everyone.filter((b) => allOutcomes.some((o) => o.playerId === b.id && o.answer));
  await mapLimit(bettors, 8, async (b) => {
    for (const v of await frame.allBets(sessions[b.index]!)) finalBets.set(v.id, v);
  });
  const walletState = new Map<
    string,
    { available: string; held: string; ledger: Awaited<ReturnType<WalletClient['ledger']>> }
  >();
  await mapLimit(everyone, 8, async (b) => {
    const [bal, ledger] = await Promise.all([wallet.balance(b.id, currency), wallet.ledger(b.id)]);
    walletState.set(b.id, { ...bal, ledger });
  });
  const invariant = await wallet.checkLedger();
  const bookieReport = await admin.reconcile(windowFrom, new Date(Date.now() + 60_000));
  const mine = bookieReport.totals.filter(
    (t) => (!target.whiteLabelId || t.white_label_id === target.whiteLabelId) && t.currency === currency,
  );
  const pending = await admin.pendingCallbacks(1000, target.whiteLabelId);
  // Bookie's side of each cash-out payment: the refund amounts of its /bet/cash-out-orders/accepted callbacks
  const cashOutCallbacks = new Map<string, { status: string; refund_amount: string }[]>();
  const cashedBets = [
    ...new Set(cashOuts.filter((c) => c.order?.status.code === 'accepted').map((c) => c.betId)),
  ];
  await mapLimit(cashedBets, 8, async (betId) => {
    cashOutCallbacks.set(betId, await admin.cashOutCallbacks(betId));
  });
  const sumOf = (f: (t: (typeof mine)[number]) => string) =>
    formatMoney(mine.reduce((acc, t) => add(acc, parseDecimal(f(t), { field: 'amount' })), ZERO));
  const finalReport = buildReport({
    seed,
    currency,
    seasons: options.seasons,
    script,
    outcomes: allOutcomes,
    finalBets,
    deposits,
    ...(inPlay ? { inPlay: { cashOuts, cashOutCallbacks, commands: inPlayCommands } } : {}),
    wallet: walletState,
    walletInvariantOk: invariant.ok,
    bookie: {
      stakes_accepted: sumOf((t) => t.stakes_accepted),
      net_payout: sumOf((t) => t.net_payout),
      open_bets: mine.reduce((n, t) => n + t.open_bets, 0),
      ledger_mismatches: bookieReport.bets.mismatched,
    },
    pendingCallbacks: pending,
    timing: {
      elapsed_s: (performance.now() - started) / 1000,
      trading_commands: progress.stepsDone + inPlayCommands,
      bets_per_s: allOutcomes.filter((o) => o.answer).length / (replayMs / 1000),
      replay_s: replayMs / 1000,
      timeline_s: timelineMs / 1000,
    },
  });
  if (options.riskLimitEur && target.whiteLabelId) {
    const types = new Map(
      script.matches.flatMap((m) =>
        m.finalMarkets.map((mk) => [`${m.sportEventId}/${mk.id}`, mk.type_id] as const),
      ),
    );
    finalReport.risk = await collectRiskReport({
      dispatcher: agent,
      baseUrl: base,
      adminToken: target.adminToken,
      partnerToken: await partner.accessToken(),
      whiteLabelId: target.whiteLabelId,
      limitEur: options.riskLimitEur,
      outcomes,
      population,
      marketTypeOf: (e, m) => types.get(`${e}/${m}`),
    });
  }
  if (reported) {
    finalReport.reported = await reported.finish();
    for (const p of finalReport.reported.problems) {
      if (finalReport.reconciliation.problems.length < 20) finalReport.reconciliation.problems.push(p);
    }
    if (finalReport.reported.problems.length > 0) finalReport.reconciliation.ok = false;
  }
  const byId = new Map(script.matches.map((m) => [m.sportEventId, m]));
  const lines = allOutcomes
    .filter((o) => o.answer)
    .map((o) => betsOutLine(finalBets.get(o.answer!.id) ?? o.answer!, o.playerId, byId));
  progress.phase = 'done';
  report();
  return { report: finalReport, lines, script };
}
