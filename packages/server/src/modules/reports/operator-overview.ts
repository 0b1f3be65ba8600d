import type { OperatorOverview, OverviewFigures } from '@bookie/contracts';
import {
  add,
  div,
  format,
  formatMoney,
  isZero,
  parseDecimal,
  type Rational,
  roundHalfUp,
  sub,
  ZERO,
} from '@bookie/core';
import type { Executor } from '../../db/transaction.js';
import { exposureView, type RiskSettingsSnapshot } from '../risk/index.js';
import { dailyReport } from './bet-reports.js';
import {
  declinedSums,
  exposureTotal,
  failingCallbacks,
  largestExposures,
  settlementFigures,
  unsupportedCallbacks,
  whiteLabelNames,
} from './overview.repo.js';

const money = (v: string, field: string) => parseDecimal(v, { field, maxDecimals: 6, allowNegative: true });

/** Running sums of one currency. */
interface Sums {
  placed: number;
  accepted: number;
  declined: number;
  turnover: Rational;
  settledStake: Rational;
  paid: Rational;
}

const empty = (): Sums => ({
  placed: 0,
  accepted: 0,
  declined: 0,
  turnover: ZERO,
  settledStake: ZERO,
  paid: ZERO,
});

/** Adds a value to the sums of `key` in `into`, creating them. */
function bucket(into: Map<string, Sums>, key: string): Sums {
  let s = into.get(key);
  if (!s) {
    s = empty();
    into.set(key, s);
  }
  return s;
}

function figures(currency: string, s: Sums): OverviewFigures {
  const ggr = sub(s.settledStake, s.paid);
  return {
    currency,
    bets_placed: s.placed,
    bets_accepted: s.accepted,
    bets_declined: s.declined,
    turnover: formatMoney(s.turnover),
    settled_stake: formatMoney(s.settledStake),
    settle_amount: formatMoney(s.paid),
    ggr: formatMoney(ggr),
    margin: isZero(s.settledStake) ? null : format(roundHalfUp(div(ggr, s.settledStake), 6), 6),
  };
}

/** The figures of a map keyed by currency, by currency. */
const byCurrency = (m: Map<string, Sums>) =>
  [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([c, s]) => figures(c, s));

/**
 * The operator home (`GET /admin/overview`): turnover, GGR and margin per currency over the window — each white
 * label's daily report (`GET /reports/daily`) summed, so both agree — with bets accepted and declined, per white
 * label and per day; the open liability (total and the ten largest outcomes with their limits); callbacks failing
 * per white label; settlement's position and quarantine; and the optional callbacks learnt unsupported.
 */
export async function operatorOverview(
  db: Executor,
  settings: RiskSettingsSnapshot,
  window: { from: Date; to: Date },
  now: Date,
): Promise<OperatorOverview> {
  const whiteLabels = await whiteLabelNames(db);
  const totals = new Map<string, Sums>();
  const days = new Map<string, Map<string, Sums>>();
  const perWl: OperatorOverview['by_white_label'] = [];
  const declined = await declinedSums(db, window.from, window.to);
  for (const wl of whiteLabels) {
    const mine = new Map<string, Sums>();
    const report = await dailyReport(db, wl.id, window);
    for (const r of report.items) {
      let day = days.get(r.day);
      if (!day) {
        day = new Map();
        days.set(r.day, day);
      }
      for (const s of [bucket(totals, r.currency), bucket(mine, r.currency), bucket(day, r.currency)]) {
        s.placed += r.bets_placed;
        s.accepted += r.bets_accepted;
        s.turnover = add(s.turnover, money(r.stake, 'stake'));
        s.settledStake = add(s.settledStake, money(r.settled_stake, 'settled_stake'));
        s.paid = add(s.paid, money(r.settle_amount, 'settle_amount'));
      }
    }
    for (const d of declined.filter((x) => x.white_label_id === wl.id)) {
      let day = days.get(d.day);
      if (!day) {
        day = new Map();
        days.set(d.day, day);
      }
      for (const s of [bucket(totals, d.currency), bucket(mine, d.currency), bucket(day, d.currency)]) {
        s.declined += Number(d.declined);
      }
    }
    if (mine.size > 0) perWl.push({ white_label_id: wl.id, figures: byCurrency(mine) });
  }
  const exposure = await exposureTotal(db);
  const largest = await largestExposures(db, 10);
  const settlement = await settlementFigures(db);
  const lag = BigInt(settlement.head) - BigInt(settlement.processed);
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    generated_at: now.toISOString(),
    white_labels: whiteLabels,
    totals: byCurrency(totals),
    by_white_label: perWl,
    days: [...days.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([day, m]) => ({ day, figures: byCurrency(m) })),
    liability: {
      total_eur: exposure.total,
      outcomes: exposure.outcomes,
      largest: largest.map((r) => exposureView(settings, r)),
    },
    callbacks_failing: (await failingCallbacks(db)).map((c) => ({
      white_label_id: c.white_label_id,
      failing: c.failing,
      oldest_at: c.oldest_at ? new Date(c.oldest_at).toISOString() : null,
    })),
    settlement: {
      head: settlement.head,
      processed: settlement.processed,
      lag_entries: (lag < 0n ? 0n : lag).toString(),
      last_entry_at: settlement.last_entry_at ? new Date(settlement.last_entry_at).toISOString() : null,
      quarantined: settlement.quarantined,
    },
    unsupported_callbacks: await unsupportedCallbacks(db),
  };
}
