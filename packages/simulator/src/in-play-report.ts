/**
 * The in-play section of a replay report (docs/adr/0026-in-play-replay.md "Report"): live bets and what the bet
 * delay made of them, and the cash-outs — full and partial, what they paid, and the margin the book earned on them
 * (fair value at the quote − paid). Pure.
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
import type { CashOutOutcome, LiveBetOutcome } from './outcomes.js';

const money = (v: string): Rational =>
  parseDecimal(v, { field: 'amount', maxDecimals: 12, allowNegative: true });

/** Live bets whose market moved while they waited out their delay, by what became of them. */
export interface DelayLine {
  /** Bets sent with the next minute's commands (new prices, or a goal's bet stop) going out during their delay. */
  sent: number;
  accepted: number;
  /** Accepted at other odds than requested (the strategy allowed the move). */
  accepted_at_new_odds: number;
  declined: number;
  /** Declined by restriction type (`sport_event_bet_stop`: the goal; `selection_value`: the odds moved). */
  declined_by_restriction: Record<string, number>;
}

/** The in-play section of the report. */
export interface InPlayReport {
  /** Matches played in play and the trading commands they took. */
  matches: number;
  trading_commands: number;
  live_bets: {
    planned: number;
    placed: number;
    accepted: number;
    declined: number;
    /** Not sent (no open market at that minute) or refused without a bet. */
    not_placed: number;
    /** The goal's bet stop fell in the delay. */
    goal_during_delay: DelayLine;
    /** New prices came out during the delay. */
    odds_during_delay: DelayLine;
  };
  cash_outs: {
    planned: number;
    /** Quotes that offered nothing, by reason (e.g. `market_suspended` at a goal). */
    not_offered: Record<string, number>;
    placed: number;
    accepted_full: number;
    accepted_partial: number;
    declined: Record<string, number>;
    errors: number;
    /** Σ stake cashed out, Σ paid to players, Σ fair value of what was cashed out (currency of the report). */
    stake_cashed_out: string;
    paid: string;
    fair_value: string;
    /** fair value − paid: what the book kept by buying the bets back below their value. */
    margin_earned: string;
    /** margin earned / fair value, percent with 2 decimals; null without cash-outs. */
    margin_pct: string | null;
  };
}

function delayLine(bets: readonly LiveBetOutcome[], finalBets: ReadonlyMap<string, BetView>): DelayLine {
  const line: DelayLine = {
    sent: 0,
    accepted: 0,
    accepted_at_new_odds: 0,
    declined: 0,
    declined_by_restriction: {},
  };
  for (const o of bets) {
    if (!o.answer || !o.live.sentDuringDelay) continue;
    const bet = finalBets.get(o.answer.id) ?? o.answer;
    line.sent++;
    if (bet.status === 2) {
      line.declined++;
      for (const r of bet.restrictions)
        line.declined_by_restriction[r.type] = (line.declined_by_restriction[r.type] ?? 0) + 1;
    } else if (bet.status !== 10 && bet.status !== 11) {
      line.accepted++;
      const s = bet.selections[0];
      if (s && compare(money(s.odds), money(s.requested_odds)) !== 0) line.accepted_at_new_odds++;
    }
  }
  return line;
}

/** Builds the in-play section from the live bets, their final state and the cash-outs. */
export function buildInPlayReport(input: {
  matches: number;
  commands: number;
  bets: readonly LiveBetOutcome[];
  finalBets: ReadonlyMap<string, BetView>;
  cashOuts: readonly CashOutOutcome[];
}): InPlayReport {
  const { bets, finalBets } = input;
  let placed = 0;
  let accepted = 0;
  let declined = 0;
  for (const o of bets) {
    if (!o.answer) continue;
    placed++;
    const bet = finalBets.get(o.answer.id) ?? o.answer;
    if (bet.status === 2 || bet.status === 10 || bet.status === 11) declined++;
    else accepted++;
  }
  const notOffered: Record<string, number> = {};
  const declinedOrders: Record<string, number> = {};
  let placedOrders = 0;
  let full = 0;
  let partial = 0;
  let errors = 0;
  let stake = ZERO;
  let paid = ZERO;
  let fair = ZERO;
  for (const c of input.cashOuts) {
    if (c.error) errors++;
    if (c.quote && !c.quote.available) {
      const r = c.quote.reason ?? 'unknown';
      notOffered[r] = (notOffered[r] ?? 0) + 1;
    }
    if (!c.order) continue;
    placedOrders++;
    if (c.order.status.code !== 'accepted') {
      const r = c.order.status.reason ?? c.order.status.code;
      declinedOrders[r] = (declinedOrders[r] ?? 0) + 1;
      continue;
    }
    if (c.kind === 'full') full++;
    else partial++;
    stake = add(stake, money(c.order.amount));
    paid = add(paid, money(c.order.refund_amount));
    fair = add(fair, money(c.fair ?? c.order.refund_amount));
  }
  const earned = sub(fair, paid);
  return {
    matches: input.matches,
    trading_commands: input.commands,
    live_bets: {
      planned: bets.length,
      placed,
      accepted,
      declined,
      not_placed: bets.length - placed,
      goal_during_delay: delayLine(
        bets.filter((b) => b.live.during === 'goal'),
        finalBets,
      ),
      odds_during_delay: delayLine(
        bets.filter((b) => b.live.during === 'odds'),
        finalBets,
      ),
    },
    cash_outs: {
      planned: input.cashOuts.length,
      not_offered: notOffered,
      placed: placedOrders,
      accepted_full: full,
      accepted_partial: partial,
      declined: declinedOrders,
      errors,
      stake_cashed_out: formatMoney(stake),
      paid: formatMoney(paid),
      fair_value: formatMoney(fair),
      margin_earned: formatMoney(earned),
      margin_pct: compare(fair, ZERO) === 0 ? null : format(mul(div(earned, fair), fromInteger(100)), 2),
    },
  };
}

/** The in-play section as text lines. */
export function formatInPlayReport(r: InPlayReport, currency: string): string[] {
  const two = (v: string) => format(money(v), 2);
  const l = r.live_bets;
  const delay = (name: string, d: DelayLine) =>
    `  ${name}: ${d.sent} sent, ${d.accepted} accepted (${d.accepted_at_new_odds} at new odds), ${d.declined} declined` +
    (Object.keys(d.declined_by_restriction).length
      ? ` (${Object.entries(d.declined_by_restriction)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')})`
      : '');
  const c = r.cash_outs;
  const counts = (x: Record<string, number>) =>
    Object.entries(x)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ') || 'none';
  return [
    `In play: ${r.matches} matches, ${r.trading_commands} trading commands`,
    `  live bets: ${l.placed} placed, ${l.accepted} accepted, ${l.declined} declined` +
      (l.not_placed ? `, ${l.not_placed} not placed` : ''),
    delay('goal during the bet delay', l.goal_during_delay),
    delay('new prices during the bet delay', l.odds_during_delay),
    `  cash-outs: ${c.placed} placed, ${c.accepted_full} full and ${c.accepted_partial} partial accepted, declined ` +
      `${counts(c.declined)}; not offered ${counts(c.not_offered)}`,
    `  cashed out ${two(c.stake_cashed_out)} of stake for ${two(c.paid)} paid; fair value ${two(c.fair_value)}, ` +
      `margin earned ${two(c.margin_earned)} (${c.margin_pct === null ? '-' : `${c.margin_pct}%`}) ${currency}`,
  ];
}
