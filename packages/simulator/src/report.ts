/**
 * The end of a replay: the report (fixtures; bets placed, accepted, declined by restriction; settled by settle type;
 * stakes, payouts, GGR and margin per market; the reconciliation of the wallet against Bookie; the bet builder
 * model's calibration on the replayed matches), its text form, and
 * the audit lines of `--bets-out` (one JSON object per bet). Pure: every input is gathered by the runner.
 *
 * @packageDocumentation
 */

import type { BetView } from '@bookie/contracts';
import {
  add,
  compare,
  div,
  format,
  formatMoney,
  fromInteger,
  mul,
  parseDecimal,
  type Rational,
  sub,
  ZERO,
} from '@bookie/core';
import type { BetKind } from './bettors.js';
import { builderCalibration, calibrationMatchOf } from './builder-calibration.js';
import type { MarketKind } from './football-data.js';
import { buildInPlayReport } from './in-play-report.js';
import { marketKindOf } from './markets.js';
import type { LiveBetOutcome } from './outcomes.js';
import type { MarketLine, Reconciliation, ReplayReport, ReportInput } from './replay-report.js';

export * from './bets-out.js';
export * from './format-report.js';
export type { BetOutcome } from './outcomes.js';
export * from './replay-report.js';

const money = (v: string | null | undefined): Rational =>
  v === null || v === undefined
    ? ZERO
    : parseDecimal(v, { field: 'amount', maxDecimals: 12, allowNegative: true });

const pct = (num: Rational, den: Rational): string | null =>
  compare(den, ZERO) === 0 ? null : format(mul(div(num, den), fromInteger(100)), 2);

/** Builds the report. */
export function buildReport(input: ReportInput): ReplayReport {
  const { script } = input;
  const matches = script.matches;
  const marketsCount: Record<MarketKind, number> = { '1x2': 0, total: 0, asian_handicap: 0 };
  const oddStatuses: Record<string, number> = {};
  let skipped = 0;
  for (const m of matches) {
    skipped += m.row.skippedMarkets.length;
    for (const market of m.finalMarkets) {
      const kind = marketKindOf(market.type_id);
      if (kind) marketsCount[kind]++;
      for (const o of Object.values(market.odds)) oddStatuses[o.status] = (oddStatuses[o.status] ?? 0) + 1;
    }
  }

  const bets: ReplayReport['bets'] = {
    planned: input.outcomes.length,
    placed: 0,
    accepted: 0,
    declined: 0,
    place_errors: 0,
    force_declined: 0,
    not_placed: 0,
    by_type: { single: 0, express: 0, system: 0 },
    declined_by_restriction: {},
  };
  const settled: ReplayReport['settled'] = {
    bets: 0,
    by_settle_type: { win: 0, refund: 0, lost: 0 },
    selection_statuses: {},
  };
  const bySportEvent = new Map(matches.map((m) => [m.sportEventId, m]));
  const groups = new Map<string, { bets: number; stakes: Rational; payouts: Rational }>();
  const group = (name: string) => {
    let g = groups.get(name);
    if (!g) {
      g = { bets: 0, stakes: ZERO, payouts: ZERO };
      groups.set(name, g);
    }
    return g;
  };
  for (const name of ['1x2', 'total', 'asian_handicap', 'express', 'system']) group(name);
  /** A single by its market kind, else its bet type. */
  const groupOf = (bet: BetView): string => {
    if (bet.bet_type !== 'single') return bet.bet_type;
    const m = bySportEvent.get(bet.selections[0]?.sport_event_id ?? '');
    const market = m?.finalMarkets.find((x) => x.id === bet.selections[0]?.market_id);
    return (market && marketKindOf(market.type_id)) ?? 'single';
  };

  const problems: string[] = [];
  const problem = (p: string) => {
    if (problems.length < 20) problems.push(p);
  };
  let everySettled = true;
  let stakesAccepted = ZERO;
  let payouts = ZERO;
  // per player: what the wallet should hold, from Bookie's bets
  const expected = new Map<string, Rational>();
  const perBet = new Map<string, { stake: Rational; payout: Rational; accepted: boolean }>();
  // in play: what each bet's accepted cash-out orders paid
  const cashOutPaid = new Map<string, { paid: Rational; orders: number }>();
  let cashOutTotal = ZERO;
  for (const c of input.inPlay?.cashOuts ?? []) {
    if (c.order?.status.code !== 'accepted') continue;
    const x = cashOutPaid.get(c.betId) ?? { paid: ZERO, orders: 0 };
    x.paid = add(x.paid, money(c.order.refund_amount));
    x.orders++;
    cashOutPaid.set(c.betId, x);
    cashOutTotal = add(cashOutTotal, money(c.order.refund_amount));
  }
  for (const [player, list] of input.deposits) {
    expected.set(
      player,
      list.reduce((acc, d) => add(acc, money(d)), ZERO),
    );
  }
  for (const o of input.outcomes) {
    if (!o.answer) {
      bets.not_placed++;
      continue;
    }
    const bet = input.finalBets.get(o.answer.id) ?? o.answer;
    bets.placed++;
    bets.by_type[bet.bet_type as BetKind]++;
    const accepted = [1, 3, 4, 5, 6, 7].includes(bet.status);
    if (accepted) bets.accepted++;
    else if (bet.status === 2) bets.declined++;
    else if (bet.status === 10) bets.place_errors++;
    else if (bet.status === 11) bets.force_declined++;
    if (!accepted) {
      for (const r of bet.restrictions)
        bets.declined_by_restriction[r.type] = (bets.declined_by_restriction[r.type] ?? 0) + 1;
    }
    const stake = money(bet.stake);
    const isSettled = bet.state === 'settled';
    const payout = isSettled ? money(bet.settle_amount) : ZERO;
    perBet.set(bet.id, { stake, payout, accepted });
    if (!accepted) continue;
    stakesAccepted = add(stakesAccepted, stake);
    let e = expected.get(o.playerId) ?? ZERO;
    const cashedOut = cashOutPaid.get(bet.id)?.paid ?? ZERO;
    e = add(sub(e, stake), cashedOut);
    if (bet.state === 'cashed_out') {
      // cashed out in full: the cash-out paid it, no settlement follows
      expected.set(o.playerId, e);
      const g = group(groupOf(bet));
      g.bets++;
      g.stakes = add(g.stakes, stake);
      g.payouts = add(g.payouts, cashedOut);
      continue;
    }
    if (!isSettled) {
      everySettled = false;
      problem(`bet ${bet.id} is accepted but not settled (status ${bet.status})`);
      expected.set(o.playerId, e);
      continue;
    }
    e = add(e, payout);
    expected.set(o.playerId, e);
    payouts = add(payouts, payout);
    settled.bets++;
    if (bet.settle_type === 1) settled.by_settle_type.win++;
    else if (bet.settle_type === 2) settled.by_settle_type.refund++;
    else if (bet.settle_type === 3) settled.by_settle_type.lost++;
    for (const s of bet.selections)
      settled.selection_statuses[s.status] = (settled.selection_statuses[s.status] ?? 0) + 1;
    const g = group(groupOf(bet));
    g.bets++;
    g.stakes = add(g.stakes, stake);
    g.payouts = add(add(g.payouts, payout), cashedOut);
  }
  const marketLines: MarketLine[] = [];
  let allBets = 0;
  let allStakes = ZERO;
  let allPayouts = ZERO;
  for (const [name, g] of groups) {
    allBets += g.bets;
    allStakes = add(allStakes, g.stakes);
    allPayouts = add(allPayouts, g.payouts);
    marketLines.push(line(name, g.bets, g.stakes, g.payouts));
  }
  marketLines.push(line('all', allBets, allStakes, allPayouts));

  // the wallet against Bookie
  let cashOutsMatch = true;
  let balancesMatch = true;
  let ledgerMatches = true;
  let noHolds = true;
  let walletAvailable = ZERO;
  let walletHeld = ZERO;
  let deposits = ZERO;
  for (const list of input.deposits.values()) for (const d of list) deposits = add(deposits, money(d));
  for (const [player, exp] of expected) {
    const w = input.wallet.get(player);
    if (!w) {
      balancesMatch = false;
      problem(`no wallet balance for ${player}`);
      continue;
    }
    walletAvailable = add(walletAvailable, money(w.available));
    walletHeld = add(walletHeld, money(w.held));
    if (compare(money(w.held), ZERO) !== 0) {
      noHolds = false;
      problem(`${player}: ${w.held} still held at the wallet`);
    }
    if (compare(money(w.available), exp) !== 0) {
      balancesMatch = false;
      problem(`${player}: wallet has ${w.available}, Bookie's bets say ${formatMoney(exp)}`);
    }
    // per bet, from the wallet's ledger
    const byBet = new Map<
      string,
      { held: Rational; captured: Rational; credited: Rational; cashedOut: Rational }
    >();
    for (const l of w.ledger) {
      if (!l.bet_id) continue;
      const betCurrency = input.finalBets.get(l.bet_id)?.currency ?? input.currency;
      if (l.currency !== undefined && l.currency !== betCurrency) {
        ledgerMatches = false;
        problem(
          `${player} bet ${l.bet_id}: the wallet booked a ${l.kind} in ${l.currency}, Bookie's bet is in ${betCurrency}`,
        );
      }
      let b = byBet.get(l.bet_id);
      if (!b) {
        b = { held: ZERO, captured: ZERO, credited: ZERO, cashedOut: ZERO };
        byBet.set(l.bet_id, b);
      }
      const a = money(l.amount);
      if (l.kind === 'hold') b.held = add(b.held, a);
      else if (l.kind === 'release') b.held = sub(b.held, a);
      else if (l.kind === 'capture') {
        b.held = sub(b.held, a);
        b.captured = add(b.captured, a);
      } else if (l.kind === 'credit' && l.reason === 'settle') b.credited = add(b.credited, a);
      else if (l.kind === 'debit' && l.reason === 'unsettle') b.credited = sub(b.credited, a);
      else if (l.kind === 'credit' && l.reason === 'cash_out') b.cashedOut = add(b.cashedOut, a);
      else if (l.kind === 'debit' && l.reason === 'cash_out_declined') b.cashedOut = sub(b.cashedOut, a);
    }
    for (const [betId, b] of byBet) {
      const mine = perBet.get(betId);
      if (!mine) {
        ledgerMatches = false;
        problem(`${player}: the wallet moved money for ${betId}, a bet the replay did not place`);
        continue;
      }
      const wantCaptured = mine.accepted ? mine.stake : ZERO;
      if (compare(b.captured, wantCaptured) !== 0 || compare(b.credited, mine.payout) !== 0) {
        ledgerMatches = false;
        problem(
          `${player} bet ${betId}: wallet captured ${formatMoney(b.captured)} credited ${formatMoney(b.credited)}, ` +
            `Bookie: stake ${formatMoney(wantCaptured)} payout ${formatMoney(mine.payout)}`,
        );
      }
      if (compare(b.held, ZERO) !== 0) noHolds = false;
      const wantCashOut = cashOutPaid.get(betId)?.paid ?? ZERO;
      if (compare(b.cashedOut, wantCashOut) !== 0) {
        cashOutsMatch = false;
        problem(
          `${player} bet ${betId}: the wallet credited ${formatMoney(b.cashedOut)} for cash-outs, the accepted ` +
            `orders paid ${formatMoney(wantCashOut)}`,
        );
      }
    }
    for (const o of input.outcomes) {
      if (o.playerId !== player || !o.answer) continue;
      const mine = perBet.get(o.answer.id);
      if (mine?.accepted && !byBet.has(o.answer.id)) {
        ledgerMatches = false;
        problem(`${player} bet ${o.answer.id}: accepted by Bookie, unknown to the wallet`);
      }
    }
  }
  // Bookie's cash-out callbacks: one delivered /bet/cash-out-orders/accepted per accepted order, same amounts
  for (const [betId, want] of cashOutPaid) {
    const calls = input.inPlay?.cashOutCallbacks.get(betId) ?? [];
    const delivered = calls.filter((c) => c.status === 'delivered');
    const sum = delivered.reduce((acc, c) => add(acc, money(c.refund_amount)), ZERO);
    if (delivered.length !== want.orders || calls.length !== want.orders || compare(sum, want.paid) !== 0) {
      cashOutsMatch = false;
      problem(
        `bet ${betId}: Bookie delivered ${delivered.length} of ${calls.length} cash-out callbacks for ` +
          `${formatMoney(sum)}, the replay's ${want.orders} accepted orders paid ${formatMoney(want.paid)}`,
      );
    }
  }
  const bookieOk =
    input.bookie.ledger_mismatches === 0 &&
    input.bookie.open_bets === 0 &&
    compare(money(input.bookie.stakes_accepted), stakesAccepted) === 0 &&
    compare(money(input.bookie.net_payout), payouts) === 0;
  if (!bookieOk) {
    problem(
      `Bookie's report: stakes ${input.bookie.stakes_accepted}, net payout ${input.bookie.net_payout}, ` +
        `open ${input.bookie.open_bets}, mismatches ${input.bookie.ledger_mismatches}; the bets: stakes ` +
        `${formatMoney(stakesAccepted)}, payouts ${formatMoney(payouts)}`,
    );
  }
  if (!input.walletInvariantOk) problem('the wallet ledger invariant fails');
  if (input.pendingCallbacks > 0) problem(`${input.pendingCallbacks} callbacks still pending in the outbox`);
  const reconciliation: Reconciliation = {
    ok:
      balancesMatch &&
      ledgerMatches &&
      noHolds &&
      everySettled &&
      bookieOk &&
      cashOutsMatch &&
      input.walletInvariantOk &&
      input.pendingCallbacks === 0,
    wallet_balances_match: balancesMatch,
    wallet_ledger_matches_bets: ledgerMatches,
    no_holds_left: noHolds,
    every_accepted_bet_settled: everySettled,
    bookie_report_ok: bookieOk,
    wallet_invariant_ok: input.walletInvariantOk,
    outbox_drained: input.pendingCallbacks === 0,
    players: expected.size,
    deposits: formatMoney(deposits),
    wallet_available: formatMoney(walletAvailable),
    wallet_held: formatMoney(walletHeld),
    stakes_accepted: formatMoney(stakesAccepted),
    settled_payouts: formatMoney(payouts),
    ...(input.inPlay ? { cash_outs_match: cashOutsMatch, cash_out_paid: formatMoney(cashOutTotal) } : {}),
    bookie: input.bookie,
    problems,
  };

  return {
    seed: input.seed,
    seasons: input.seasons.map((s) => ({
      file: s.file,
      league: s.matches[0]?.league ?? '',
      season: s.matches[0]?.season ?? '',
      matches: s.matches.length,
    })),
    fixtures: {
      matches: matches.length,
      markets: marketsCount,
      skipped_markets: skipped,
      odd_statuses: oddStatuses,
    },
    bets,
    settled,
    markets: marketLines,
    currency: input.currency,
    reconciliation,
    builder_calibration: builderCalibration(
      matches.map((m) => calibrationMatchOf(m.row)).filter((m) => m !== undefined),
    ),
    ...(input.inPlay
      ? {
          in_play: buildInPlayReport({
            matches: input.inPlay.matches ?? matches.length,
            commands: input.inPlay.commands,
            bets: input.outcomes.filter((o): o is LiveBetOutcome => 'live' in o),
            finalBets: input.finalBets,
            cashOuts: input.inPlay.cashOuts,
          }),
        }
      : {}),
    timing: input.timing,
  };
}

function line(market: string, bets: number, stakes: Rational, payouts: Rational): MarketLine {
  const ggr = sub(stakes, payouts);
  return {
    market,
    bets,
    stakes: formatMoney(stakes),
    payouts: formatMoney(payouts),
    ggr: formatMoney(ggr),
    margin_pct: pct(ggr, stakes),
  };
}
