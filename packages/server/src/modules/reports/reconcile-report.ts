import { add, formatMoney, parseDecimal, type Rational, sub, validationError, ZERO } from '@bookie/core';
import { betStatusCode } from '../bets/index.js';
import {
  acceptedStakes,
  type BetLedgerCheck,
  cashOutPayments,
  cashOutTotals,
  checkBetLedgers,
  ledgerTotals,
  limitsKey,
  openBetsPage,
  potentialOutcome,
  prefetchLimits,
  type SettlementDeps,
  type SettlementLimits,
  unsettledNow,
} from '../settlement/index.js';

/** One line of the report: a white label and a currency. */
export interface ReconcileTotals {
  white_label_id: string;
  currency: string;
  /** Bets accepted in the window (whatever they became since) and their stakes. */
  bets_accepted: number;
  stakes_accepted: string;
  /** `/bet/settle` callbacks of the window and their amounts. */
  settles: number;
  settle_amount: string;
  /** `/bet/unsettle` callbacks of the window and their amounts (payouts taken back). */
  unsettles: number;
  unsettle_amount: string;
  /** Payouts settled in the window: Σ settle − Σ unsettle. */
  net_payout: string;
  /** Bets of the window unsettled now (a result went back to "not resulted"). */
  unsettled_bets: number;
  /** Bets of the window still open (accepted or unsettled) and their potential payout if every open leg wins. */
  open_bets: number;
  open_exposure: string;
  /** Bets of this line whose ledger fails a check (see {@link ReconcileBet}). */
  ledger_mismatches: number;
  /** The platform's cash-out orders accepted in the window (and still accepted): count, stake cashed out, paid. */
  cash_outs: number;
  cash_out_stake: string;
  cash_out_paid: string;
  /** Of those, the orders of frame bets, paid through `/bet/cash-out-orders/accepted` (the partner pays the others). */
  cash_outs_through_callbacks: number;
  /** Their callbacks delivered to the wallet, and Σ of what they paid. */
  cash_out_callbacks_delivered: number;
  cash_out_callbacks_paid: string;
  /** Their callbacks still being delivered (not a mismatch yet). */
  cash_out_callbacks_pending: number;
  /** Orders whose payment does not match (see {@link ReconcileCashOut}). */
  cash_out_mismatches: number;
}

/**
 * A frame bet's accepted cash-out order whose wallet-side payment does not match: `missing` (no accepted callback in
 * the outbox), `failed` or `unsupported` (the wallet never took it), `amount` (the callback pays another amount).
 */
export interface ReconcileCashOut {
  bet_id: string;
  white_label_id: string;
  currency: string;
  cash_out_order_id: string;
  refund_amount: string;
  callback_status: string | null;
  callback_amount: string | null;
  problem: 'missing' | 'failed' | 'unsupported' | 'amount';
}

/** The ledger check of one bet: Σ settle − Σ unsettle = its current payout (DECISIONS D12). */
export interface ReconcileBet {
  bet_id: string;
  white_label_id: string;
  currency: string;
  state: string;
  /** D6 code. */
  status: number;
  settles: number;
  unsettles: number;
  settle_sum: string;
  unsettle_sum: string;
  /** Σ settle − Σ unsettle. */
  balance: string;
  /** The current settle amount (0 unless settled). */
  current_payout: string;
  ok: boolean;
  /** What failed: `balance`, `shape` (settle/unsettle do not alternate or an unsettle does not reverse its settle),
   * `outbox` (a ledger row without its callback), `currency` (the bet's `Foreign-Params` name another currency than
   * the bet's, so a wallet booking in that currency moved the wrong money). */
  problems: string[];
}

/** The reconciliation report: totals per white label and currency, and the per-bet ledger check. */
export interface ReconcileReport {
  from: string;
  to: string;
  generated_at: string;
  totals: ReconcileTotals[];
  bets: {
    /** Bets with a settle or unsettle in the window. */
    checked: number;
    mismatched: number;
    /** The failing bets (at most 1000). */
    mismatches: ReconcileBet[];
    /** Every checked bet, when asked for. */
    rows?: ReconcileBet[];
  };
  /** The cash-out orders whose payment does not match (at most 1000). */
  cash_outs: { mismatched: number; mismatches: ReconcileCashOut[] };
}

const exact = (v: string) => parseDecimal(v, { field: 'amount', maxDecimals: 12 });
const money = (v: string) => formatMoney(exact(v));

function toBet(c: BetLedgerCheck): ReconcileBet {
  const problems: string[] = [];
  if (!c.balance_ok) problems.push('balance');
  if (!c.shape_ok) problems.push('shape');
  if (!c.outbox_ok) problems.push('outbox');
  if (!c.currency_ok) problems.push('currency');
  return {
    bet_id: c.bet_id,
    white_label_id: c.white_label_id,
    currency: c.currency,
    state: c.state,
    status: betStatusCode({ state: c.state, settle_type: c.settle_type, settle_status: c.settle_status }),
    settles: Number(c.settles),
    unsettles: Number(c.unsettles),
    settle_sum: money(c.settle_sum),
    unsettle_sum: money(c.unsettle_sum),
    balance: money(c.balance),
    current_payout: c.state === 'settled' && c.settle_amount !== null ? money(c.settle_amount) : money('0'),
    ok: problems.length === 0,
    problems,
  };
}

/**
 * Builds the reconciliation report of [from, to): per white label and currency the stakes accepted,
 * the settle and unsettle callbacks (from the settlement ledger, written with the callbacks), the net payout, the
 * bets unsettled now and the open exposure (potential payout of the window's open bets, every open leg winning,
 * with the caps); and per bet, for every bet with a callback in the window, that Σ settle − Σ unsettle over its
 * whole ledger equals its current payout, that the ledger alternates settle / unsettle with each unsettle reversing
 * the settle before it, and that each row's callback is in the outbox. The cash-out line: the platform's orders
 * accepted in the window, and for frame bets (paid through callbacks) that each order's `/bet/cash-out-orders/accepted`
 * reached the wallet with the order's amount. Reads in pages; nothing is written.
 */
export async function reconcileReport(
  deps: SettlementDeps,
  input: { from: Date; to: Date; perBet?: boolean },
): Promise<ReconcileReport> {
  const db = deps.database.db;
  const { from, to } = input;
  const lines = new Map<string, ReconcileTotals>();
  const line = (wl: string, currency: string): ReconcileTotals => {
    const key = `${wl}\u0000${currency}`;
    let l = lines.get(key);
    if (!l) {
      l = {
        white_label_id: wl,
        currency,
        bets_accepted: 0,
        stakes_accepted: money('0'),
        settles: 0,
        settle_amount: money('0'),
        unsettles: 0,
        unsettle_amount: money('0'),
        net_payout: money('0'),
        unsettled_bets: 0,
        open_bets: 0,
        open_exposure: money('0'),
        ledger_mismatches: 0,
        cash_outs: 0,
        cash_out_stake: money('0'),
        cash_out_paid: money('0'),
        cash_outs_through_callbacks: 0,
        cash_out_callbacks_delivered: 0,
        cash_out_callbacks_paid: money('0'),
        cash_out_callbacks_pending: 0,
        cash_out_mismatches: 0,
      };
      lines.set(key, l);
    }
    return l;
  };
  for (const r of await acceptedStakes(db, from, to)) {
    const l = line(r.white_label_id, r.currency);
    l.bets_accepted = Number(r.n);
    l.stakes_accepted = money(r.stakes);
  }
  for (const r of await ledgerTotals(db, from, to)) {
    const l = line(r.white_label_id, r.currency);
    l.settles = Number(r.settles);
    l.settle_amount = money(r.settle_amount);
    l.unsettles = Number(r.unsettles);
    l.unsettle_amount = money(r.unsettle_amount);
    l.net_payout = formatMoney(sub(exact(r.settle_amount), exact(r.unsettle_amount)));
  }
  // cash-out: the orders accepted, and for frame bets the wallet's side — each order's accepted callback delivered
  // with the order's amount
  for (const r of await cashOutTotals(db, from, to)) {
    const l = line(r.white_label_id, r.currency);
    l.cash_outs = Number(r.n);
    l.cash_out_stake = money(r.stake);
    l.cash_out_paid = money(r.paid);
    l.cash_outs_through_callbacks = Number(r.through_callbacks);
  }
  const cashOutMismatches: ReconcileCashOut[] = [];
  const paidThrough = new Map<string, Rational>();
  for (const o of await cashOutPayments(db, from, to)) {
    const l = line(o.white_label_id, o.currency);
    let problem: ReconcileCashOut['problem'] | undefined;
    if (o.callback_status === null) problem = 'missing';
    else if (o.callback_status === 'failed' || o.callback_status === 'unsupported')
      problem = o.callback_status;
    else if (o.callback_amount === null || formatMoney(exact(o.callback_amount)) !== money(o.refund_amount))
      problem = 'amount';
    else if (o.callback_status === 'pending') l.cash_out_callbacks_pending++;
    else {
      l.cash_out_callbacks_delivered++;
      const key = `${o.white_label_id}\u0000${o.currency}`;
      paidThrough.set(key, add(paidThrough.get(key) ?? ZERO, exact(o.refund_amount)));
    }
    if (problem) {
      l.cash_out_mismatches++;
      if (cashOutMismatches.length < 1000) {
        cashOutMismatches.push({
          bet_id: o.bet_id,
          white_label_id: o.white_label_id,
          currency: o.currency,
          cash_out_order_id: o.cash_out_order_id,
          refund_amount: money(o.refund_amount),
          callback_status: o.callback_status,
          callback_amount: o.callback_amount === null ? null : money(o.callback_amount),
          problem,
        });
      }
    }
  }
  for (const [key, v] of paidThrough) {
    const l = lines.get(key);
    if (l) l.cash_out_callbacks_paid = formatMoney(v);
  }
  for (const r of await unsettledNow(db, from, to))
    line(r.white_label_id, r.currency).unsettled_bets = Number(r.n);

  // open exposure: every open bet of the window, as if each open leg won at its accepted odds
  const exposure = new Map<string, Rational>();
  const limits = new Map<string, SettlementLimits>();
  let after: string | null = null;
  for (;;) {
    const page = await openBetsPage(db, from, to, after, 500);
    if (page.length === 0) break;
    after = page[page.length - 1]?.row.id ?? null;
    for (const bet of page) {
      const r = bet.row;
      const l = line(r.white_label_id, r.currency);
      l.open_bets++;
      await prefetchLimits(deps, [{ whiteLabelId: r.white_label_id, currency: r.currency }], limits);
      const lim = limits.get(limitsKey(r.white_label_id, r.currency)) as SettlementLimits;
      const key = `${r.white_label_id}\u0000${r.currency}`;
      const potential = parseDecimal(potentialOutcome(bet, lim).settleAmount, {
        field: 'p',
        maxDecimals: 6,
      });
      exposure.set(key, add(exposure.get(key) ?? ZERO, potential));
    }
  }
  for (const [key, v] of exposure) {
    const l = lines.get(key);
    if (l) l.open_exposure = formatMoney(v);
  }

  // per bet: the ledger against the bet and the outbox
  let checked = 0;
  const mismatches: ReconcileBet[] = [];
  const rows: ReconcileBet[] = [];
  let afterBet: string | null = null;
  for (;;) {
    const page = await checkBetLedgers(db, from, to, afterBet, 1000);
    if (page.length === 0) break;
    afterBet = page[page.length - 1]?.bet_id ?? null;
    for (const c of page) {
      checked++;
      const b = toBet(c);
      if (!b.ok) {
        line(b.white_label_id, b.currency).ledger_mismatches++;
        if (mismatches.length < 1000) mismatches.push(b);
      }
      if (input.perBet) rows.push(b);
    }
  }
  const totals = [...lines.values()].sort(
    (a, b) => a.white_label_id.localeCompare(b.white_label_id) || a.currency.localeCompare(b.currency),
  );
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    generated_at: new Date(deps.clock.now()).toISOString(),
    totals,
    bets: {
      checked,
      mismatched: totals.reduce((n, t) => n + t.ledger_mismatches, 0),
      mismatches,
      ...(input.perBet ? { rows } : {}),
    },
    cash_outs: {
      mismatched: totals.reduce((n, t) => n + t.cash_out_mismatches, 0),
      mismatches: cashOutMismatches,
    },
  };
}

function csvCell(v: unknown): string {
  const s = Array.isArray(v) ? v.join(' ') : String(v ?? '');
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csv<T extends object>(rows: readonly T[], columns: readonly (keyof T & string)[]): string {
  const lines = [columns.join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvCell(r[c])).join(','));
  return `${lines.join('\n')}\n`;
}

/** The totals as CSV (RFC 4180, a header line), or — `perBet` — the per-bet check. */
export function reportCsv(report: ReconcileReport, perBet = false): string {
  if (perBet) {
    return csv(report.bets.rows ?? report.bets.mismatches, [
      'bet_id',
      'white_label_id',
      'currency',
      'state',
      'status',
      'settles',
      'unsettles',
      'settle_sum',
      'unsettle_sum',
      'balance',
      'current_payout',
      'ok',
      'problems',
    ]);
  }
  return csv(report.totals, [
    'white_label_id',
    'currency',
    'bets_accepted',
    'stakes_accepted',
    'settles',
    'settle_amount',
    'unsettles',
    'unsettle_amount',
    'net_payout',
    'unsettled_bets',
    'open_bets',
    'open_exposure',
    'ledger_mismatches',
    'cash_outs',
    'cash_out_stake',
    'cash_out_paid',
    'cash_outs_through_callbacks',
    'cash_out_callbacks_delivered',
    'cash_out_callbacks_paid',
    'cash_out_callbacks_pending',
    'cash_out_mismatches',
  ]);
}

/** A report bound: an ISO 8601 date (`2024-05-01`, midnight UTC) or date-time with an offset. */
const WINDOW_BOUND =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:[0-9]{2}))?$/;

function bound(raw: string, field: string): Date {
  const d = new Date(raw);
  if (!WINDOW_BOUND.test(raw) || Number.isNaN(d.getTime())) {
    throw validationError(
      field,
      `must be an ISO 8601 date (2024-05-01) or date-time with offset, got "${raw}"`,
    );
  }
  return d;
}

/**
 * Parses the report window: `from` inclusive, `to` exclusive (default: now); each a date (`2024-05-01`, midnight UTC)
 * or a date-time with an offset. Throws validation_error naming the field.
 */
export function parseWindow(
  fromRaw: string,
  toRaw: string | undefined,
  prefix = '',
  now: Date = new Date(),
): { from: Date; to: Date } {
  const from = bound(fromRaw, `${prefix}from`);
  const to = toRaw === undefined ? now : bound(toRaw, `${prefix}to`);
  if (to.getTime() <= from.getTime()) throw validationError(`${prefix}to`, 'must be after from');
  return { from, to };
}
