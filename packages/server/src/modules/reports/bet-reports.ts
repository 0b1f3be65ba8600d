import {
  type AdvisoryBet,
  type BetReport,
  type BetReportRow,
  type DailyReport,
  PARTNER_BET_TYPE_CODE,
} from '@bookie/contracts';
import {
  betTotalOdds,
  betTypeFromMtsCode,
  formatMoney,
  formatOdds,
  mul,
  ONE,
  parseDecimal,
  sub,
  validationError,
} from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { betStatusCode, money6, odds6 } from '../bets/index.js';
import { advisoryBetsPlacedIn, advisoryDailySums, betsPlacedIn, dailySums } from './reports.repo.js';

/** The longest window of a report, in days. */
export const MAX_REPORT_DAYS = 92;
/** The most bets one bet report holds; a larger window must be split. */
export const MAX_REPORT_BETS = 100_000;

/**
 * The report window `[from, to)` from the query's ISO 8601 strings.
 *
 * @throws DomainError validation_error naming `querystring.from` or `querystring.to` (unparsable, empty or longer than 92 days).
 */
export function reportWindow(fromRaw: string, toRaw: string): { from: Date; to: Date } {
  const from = new Date(fromRaw);
  const to = new Date(toRaw);
  if (Number.isNaN(from.getTime()))
    throw validationError('querystring.from', 'must be an ISO 8601 date-time');
  if (Number.isNaN(to.getTime())) throw validationError('querystring.to', 'must be an ISO 8601 date-time');
  if (to <= from) throw validationError('querystring.to', 'must be after querystring.from');
  if (to.getTime() - from.getTime() > MAX_REPORT_DAYS * 86_400_000) {
    throw validationError('querystring.to', `the window is at most ${MAX_REPORT_DAYS} days`);
  }
  return { from, to };
}

/**
 * The bet report (DECISIONS D54 `GET /reports/bets`): every bet of the white label placed in the window, oldest
 * first, with its bet status code, stake and current settle amount — frame and MTS bets, and the advisory bets the partner
 * reported (their reported status; Bookie never settles them).
 *
 * @throws DomainError validation_error (the window; more than {@link MAX_REPORT_BETS} bets: split the window).
 */
export async function betReport(
  db: Executor,
  whiteLabelId: string,
  window: { from: Date; to: Date },
): Promise<BetReport> {
  const rows = await betsPlacedIn(db, whiteLabelId, window.from, window.to, MAX_REPORT_BETS + 1);
  const advisory = await advisoryBetsPlacedIn(db, whiteLabelId, window.from, window.to, MAX_REPORT_BETS + 1);
  if (rows.length + advisory.length > MAX_REPORT_BETS) {
    throw validationError(
      'querystring.to',
      `more than ${MAX_REPORT_BETS} bets in the window: choose a shorter one`,
    );
  }
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    items: [
      ...rows.map((r) => ({
        bet_id: r.partner_bet_id ?? r.id,
        player_id: r.player_id,
        created_at: new Date(r.created_at).toISOString(),
        status: betStatusCode(r as Parameters<typeof betStatusCode>[0]),
        type: PARTNER_BET_TYPE_CODE[r.bet_type],
        currency: r.currency,
        stake: money6(r.stake),
        total_odds: odds6(r.total_odds),
        settle_amount: r.settle_amount === null ? null : money6(r.settle_amount),
        settled_at: r.settled_at ? new Date(r.settled_at).toISOString() : null,
        source: r.source ?? 'frame',
      })),
      ...advisory.map(advisoryRow),
    ].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0)),
  };
}

/** An advisory bet as a row of the bet report: its reported status, stake and total odds; never settled by Bookie. */
function advisoryRow(r: Awaited<ReturnType<typeof advisoryBetsPlacedIn>>[number]): BetReportRow {
  const state = r.state as Pick<AdvisoryBet, 'type' | 'stake' | 'selections' | 'foreign_selections'>;
  const odds = [...state.selections, ...state.foreign_selections].map((s) =>
    parseDecimal(String(s.value), { field: 'value', maxDecimals: 12 }),
  );
  const type = betTypeFromMtsCode(state.type.code);
  let total = odds.reduce(mul, ONE);
  try {
    total = betTotalOdds(type, odds, type === 'system' ? state.type.system_sizes : []);
  } catch {
    // a type that does not fit its selections (advised bet_type): the product of the odds
  }
  return {
    bet_id: r.bet_id,
    player_id: r.player_id,
    created_at: new Date(r.created_at).toISOString(),
    status: r.status_code,
    type: state.type.code,
    currency: state.stake.currency_code,
    stake: state.stake.value,
    total_odds: formatOdds(total),
    settle_amount: null,
    settled_at: null,
    source: 'advisory',
  };
}

/**
 * The daily report (DECISIONS D54 `GET /reports/daily`): per UTC day of placement and currency, bets placed,
 * accepted and settled, accepted stakes, and for the settled bets their stakes, settle amounts and GGR (stakes −
 * settle amounts), exact; and apart, the advisory bets first reported that day and the stakes of those not declined
 * (Bookie neither decides nor settles them, so they stay out of the other columns and the GGR).
 */
export async function dailyReport(
  db: Executor,
  whiteLabelId: string,
  window: { from: Date; to: Date },
): Promise<DailyReport> {
  const bets = await dailySums(db, whiteLabelId, window.from, window.to);
  const advisory = await advisoryDailySums(db, whiteLabelId, window.from, window.to);
  const key = (r: { day: string; currency: string }) => `${r.day}\u0000${r.currency}`;
  const advised = new Map(advisory.map((a) => [key(a), a]));
  const zero = '0.000000';
  // a day and currency with advisory bets only still has its row
  const rows = [
    ...bets,
    ...advisory
      .filter((a) => !bets.some((b) => key(b) === key(a)))
      .map((a) => ({
        day: a.day,
        currency: a.currency,
        bets_placed: '0',
        bets_accepted: '0',
        bets_settled: '0',
        stake: zero,
        settled_stake: zero,
        settle_amount: zero,
      })),
  ].sort((a, b) =>
    a.day < b.day ? -1 : a.day > b.day ? 1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0,
  );
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    items: rows.map((r) => {
      const a = advised.get(key(r));
      const settledStake = parseDecimal(r.settled_stake, { field: 'settled_stake', maxDecimals: 6 });
      const paid = parseDecimal(r.settle_amount, { field: 'settle_amount', maxDecimals: 6 });
      return {
        day: r.day,
        currency: r.currency,
        bets_placed: Number(r.bets_placed),
        bets_accepted: Number(r.bets_accepted),
        bets_settled: Number(r.bets_settled),
        stake: r.stake,
        settled_stake: r.settled_stake,
        settle_amount: r.settle_amount,
        ggr: formatMoney(sub(settledStake, paid)),
        advisory_bets: Number(a?.bets ?? 0),
        advisory_stake: a?.stake ?? zero,
      };
    }),
  };
}
