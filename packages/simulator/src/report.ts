/**
 * The end of a replay: the report (fixtures; bets placed, accepted, declined by restriction; settled by settle type;
 * stakes, payouts, GGR and margin per market; the reconciliation of the wallet against Bookie), its text form, and
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
import type { MarketKind, ParsedSeason } from './football-data.js';
import { buildInPlayReport, formatInPlayReport, type InPlayReport } from './in-play-report.js';
import { LEAGUES, LINE_SPECIFIER, marketKindOf } from './markets.js';
import type { BetOutcome, CashOutOutcome, LiveBetOutcome } from './outcomes.js';
import type { ReportedBetsReport } from './reported-bets.js';
import { formatRiskReport, type RiskReport } from './risk-report.js';
import type { ScriptMatch, SeasonScript } from './season-script.js';

export type { BetOutcome } from './outcomes.js';

const money = (v: string | null | undefined): Rational =>
  v === null || v === undefined
    ? ZERO
    : parseDecimal(v, { field: 'amount', maxDecimals: 12, allowNegative: true });

/** One line of `--bets-out`. */
export interface BetsOutLine {
  bet_id: string;
  player_id: string;
  bet_type: BetKind;
  system_sizes: number[];
  stake: string;
  currency: string;
  /** D6 bet status: 1 accepted, 2 declined, 3 settled, 4 unsettled, 10 place error, 11 force declined. */
  status: number;
  state: string;
  settle_amount: string | null;
  /** D3: 1 win, 2 refund, 3 lost; null unless settled. */
  settle_type: number | null;
  /** Restriction types of a declined bet. */
  restrictions: string[];
  selections: {
    sport_event_id: string;
    /** Match date, UK local (`YYYY-MM-DD`), as in the CSV. */
    date: string;
    home: string;
    away: string;
    market_type: MarketKind;
    /** The total or the home team's handicap as written in the CSV; null for 1X2. */
    line: string | null;
    outcome: string;
    /** Accepted odds (6 decimals). */
    odds: string;
    /** Odd status (spec 02; D4). */
    status: number;
  }[];
}

/** The audit line of a bet (`matches` by sport event id, from the script). */
export function betsOutLine(
  bet: BetView,
  playerId: string,
  matches: ReadonlyMap<string, ScriptMatch>,
): BetsOutLine {
  return {
    bet_id: bet.id,
    player_id: playerId,
    bet_type: bet.bet_type as BetKind,
    system_sizes: bet.system_sizes,
    stake: bet.stake,
    currency: bet.currency,
    status: bet.status,
    state: bet.state,
    settle_amount: bet.settle_amount,
    settle_type: bet.settle_type,
    restrictions: bet.restrictions.map((r) => r.type),
    selections: bet.selections.map((s) => {
      const m = matches.get(s.sport_event_id);
      const market = m?.finalMarkets.find((x) => x.id === s.market_id);
      const kind = market ? marketKindOf(market.type_id) : undefined;
      if (!m || !market || !kind)
        throw new Error(`betsOutLine: unknown selection ${s.sport_event_id}/${s.market_id}`);
      const spec = LINE_SPECIFIER[kind];
      return {
        sport_event_id: s.sport_event_id,
        date: m.row.date,
        home: m.row.home,
        away: m.row.away,
        market_type: kind,
        line: spec === undefined ? null : (market.specifiers[spec] ?? null),
        outcome: s.odd_id,
        odds: s.odds,
        status: s.status,
      };
    }),
  };
}

/** Stakes and payouts of one group of settled bets. */
export interface MarketLine {
  /** `1x2`, `total`, `asian_handicap` (singles), `express`, `system`, or `all`. */
  market: string;
  bets: number;
  stakes: string;
  payouts: string;
  /** Gross gaming revenue: stakes − payouts. */
  ggr: string;
  /** GGR / stakes, in percent with 2 decimals ("4.87"); null without stakes. */
  margin_pct: string | null;
}

/** The reconciliation of the wallet (the partner's money) against Bookie's bets and callbacks. */
export interface Reconciliation {
  ok: boolean;
  /** Each player's wallet balance = deposits − captured stakes + settled payouts, per Bookie's bets. */
  wallet_balances_match: boolean;
  /**
   * Per bet, the wallet's capture = the accepted stake and its credits − debits = Bookie's settle amount, every
   * movement in the bet's currency.
   */
  wallet_ledger_matches_bets: boolean;
  /** No money held at the wallet (every /bet/place ended in accept or decline). */
  no_holds_left: boolean;
  /** Every accepted bet is settled. */
  every_accepted_bet_settled: boolean;
  /** Bookie's own report: no ledger mismatch, nothing open; its totals equal the bets'. */
  bookie_report_ok: boolean;
  /** The wallet's own invariant (`/admin/ledger/check`). */
  wallet_invariant_ok: boolean;
  /** No callback waiting in Bookie's outbox. */
  outbox_drained: boolean;
  players: number;
  deposits: string;
  wallet_available: string;
  wallet_held: string;
  /** Σ accepted stakes and Σ settle amounts from Bookie's bets. */
  stakes_accepted: string;
  settled_payouts: string;
  /**
   * In play: each cash-out the replay saw accepted was paid once — the wallet's `cash_out` credits of the bet, and
   * the refund amounts of Bookie's delivered `/bet/cash-out-orders/accepted` callbacks, each equal Σ accepted orders.
   */
  cash_outs_match?: boolean;
  /** Σ refund amounts of the accepted cash-out orders (in play). */
  cash_out_paid?: string;
  /** Bookie's reconciliation report (`/admin/reports/reconcile`). */
  bookie: { stakes_accepted: string; net_payout: string; open_bets: number; ledger_mismatches: number };
  /** The first problems found (at most 20). */
  problems: string[];
}

/** The replay report. */
export interface ReplayReport {
  /** The risk engine's section, when the replay configured liability limits (`--risk-limit`). */
  risk?: RiskReport;
  seed: string;
  seasons: { file: string; league: string; season: string; matches: number }[];
  fixtures: {
    matches: number;
    markets: Record<MarketKind, number>;
    skipped_markets: number;
    /** How many odds ended with each status (1 win … 5 refunded), over every market of the season(s). */
    odd_statuses: Record<string, number>;
  };
  bets: {
    planned: number;
    placed: number;
    accepted: number;
    declined: number;
    place_errors: number;
    force_declined: number;
    /** Requests refused without a bet (or not sent). */
    not_placed: number;
    by_type: Record<BetKind, number>;
    /** Declined and place-error bets by restriction type (a bet may have several). */
    declined_by_restriction: Record<string, number>;
  };
  settled: {
    bets: number;
    /** D3 settle types: win (1), refund (2), lost (3). */
    by_settle_type: { win: number; refund: number; lost: number };
    /** Odd statuses of the selections of settled bets. */
    selection_statuses: Record<string, number>;
  };
  markets: MarketLine[];
  currency: string;
  reconciliation: Reconciliation;
  /** The bets the other white labels reported (risk decision and advice), when the replay ran them. */
  reported?: ReportedBetsReport;
  /** The in-play phase, when the replay ran it (`--in-play`). */
  in_play?: InPlayReport;
  timing: {
    elapsed_s: number;
    trading_commands: number;
    bets_per_s: number;
    /** From the first trading command to the last bet settled (and its callbacks delivered). */
    replay_s: number;
    /** From the first trading command to the last one (bets included), before waiting for settlement. */
    timeline_s: number;
  };
}

/** Everything the report is made of. */
export interface ReportInput {
  seed: string;
  currency: string;
  seasons: readonly ParsedSeason[];
  script: SeasonScript;
  outcomes: readonly BetOutcome[];
  /** Final state of every bet (by id), read after settlement. */
  finalBets: ReadonlyMap<string, BetView>;
  /** Deposits made per player (decimal strings). */
  deposits: ReadonlyMap<string, string[]>;
  wallet: ReadonlyMap<
    string,
    {
      available: string;
      held: string;
      ledger: { kind: string; reason: string; amount: string; bet_id: string | null; currency?: string }[];
    }
  >;
  walletInvariantOk: boolean;
  bookie: { stakes_accepted: string; net_payout: string; open_bets: number; ledger_mismatches: number };
  pendingCallbacks: number;
  timing: ReplayReport['timing'];
  /** The in-play phase: the cash-outs and Bookie's cash-out callbacks per bet (live bets are in `outcomes`). */
  inPlay?: {
    cashOuts: readonly CashOutOutcome[];
    cashOutCallbacks: ReadonlyMap<string, readonly { status: string; refund_amount: string }[]>;
    commands: number;
    matches?: number;
  };
}

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

/** A money string with 2 decimals, rounded half up (display only). */
const two = (v: string) => format(money(v), 2);

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
