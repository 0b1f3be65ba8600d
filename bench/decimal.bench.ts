/**
 * Exact decimal arithmetic alone (packages/core/src/decimal.ts, docs/adr/0053-decimal-normalization.md): CPU ns per
 * operation of the operations a decision and a settlement make most — parsing money and odds, `mul`, `add`, `sub`,
 * `compare`, `eq`, `div`, `roundHalfUp`, `roundDown`, `format` — over fixed, realistic operands (stakes with up to 6
 * decimals, odds with 2–6 and 12 decimals, exposures, rates), and a mix of them in the proportions of a decision.
 * CPU time of the process (`process.cpuUsage`), which a loaded machine's preemption does not inflate; the best of
 * `rounds` rounds per operation.
 *
 *   npm run bench -- decimal [iterations=200000] [rounds=5]
 */
import {
  add,
  compare,
  div,
  eq,
  format,
  mul,
  parseMoney,
  parseOdds,
  type Rational,
  roundDown,
  roundHalfUp,
  sub,
} from '../packages/core/src/index.js';
import type { BenchResult } from './types.js';

const SIZE = 256;

/** Deterministic operands: a small linear congruential sequence, no randomness in the measured values. */
function operands() {
  let seed = 12345;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const moneyStrings: string[] = [];
  const oddsStrings: string[] = [];
  const feedStrings: string[] = [];
  for (let i = 0; i < SIZE; i++) {
    const cents = 10 + next(500_000);
    moneyStrings.push(
      `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${i % 3 === 0 ? '0000' : ''}`,
    );
    const milli = 1010 + next(20_000);
    oddsStrings.push(`${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}000`);
    feedStrings.push(
      `${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}${String(next(1_000_000_000)).padStart(9, '0')}`,
    );
  }
  const money = moneyStrings.map((s) => parseMoney(s, 'x'));
  const odds = oddsStrings.map((s) => parseOdds(s, 'x'));
  const feed = feedStrings.map((s) => parseOdds(s, 'x', { maxDecimals: 12 }));
  const payouts = money.map((m, i) => mul(m, odds[i] as Rational));
  return { moneyStrings, oddsStrings, money, odds, feed, payouts };
}

function cpuNs(fn: (i: number) => unknown, iterations: number, rounds: number): number {
  let best = Number.POSITIVE_INFINITY;
  let sink: unknown;
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < iterations; i++) sink = fn(i & (SIZE - 1));
    const c = process.cpuUsage(c0);
    best = Math.min(best, ((c.user + c.system) * 1000) / iterations);
  }
  if (sink === Symbol.for('never')) process.stdout.write('');
  return best;
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const iterations = Number(args[0] ?? 200_000);
  const rounds = Number(args[1] ?? 5);
  const { moneyStrings, oddsStrings, money, odds, feed, payouts } = operands();
  const at = <T>(xs: T[], i: number) => xs[i] as T;
  const j = (i: number) => (i * 7 + 3) & (SIZE - 1);
  const ops: Record<string, (i: number) => unknown> = {
    parse_money: (i) => parseMoney(at(moneyStrings, i), 'stake'),
    parse_odds: (i) => parseOdds(at(oddsStrings, i), 'odds'),
    mul_stake_odds: (i) => mul(at(money, i), at(odds, i)),
    mul_odds_odds: (i) => mul(at(odds, i), at(odds, j(i))),
    mul_feed_feed: (i) => mul(at(feed, i), at(feed, j(i))),
    add_money: (i) => add(at(money, i), at(money, j(i))),
    add_payouts: (i) => add(at(payouts, i), at(payouts, j(i))),
    sub_money: (i) => sub(at(money, i), at(money, j(i))),
    compare_money: (i) => compare(at(payouts, i), at(money, j(i))),
    eq_money: (i) => eq(at(money, i), at(money, j(i))),
    div_money_odds: (i) => div(at(money, i), at(odds, i)),
    round_half_up_3: (i) => roundHalfUp(at(payouts, i), 3),
    round_down_6: (i) => roundDown(div(at(money, i), at(odds, i)), 6),
    format_6: (i) => format(at(payouts, i), 6),
    decision_mix: (i) => {
      // one leg of a decision: parse stake and odds, potential win, exposure added, checked against a limit, written
      const stake = parseMoney(at(moneyStrings, i), 'stake');
      const o = parseOdds(at(oddsStrings, i), 'odds');
      const win = mul(stake, o);
      const exposure = add(at(payouts, j(i)), sub(win, stake));
      return compare(exposure, at(money, j(i))) > 0 ? format(win, 6) : format(exposure, 6);
    },
  };
  const metrics: Record<string, number> = {};
  for (const [name, fn] of Object.entries(ops)) {
    cpuNs(fn, Math.min(iterations, 20_000), 1); // warm-up
    metrics[`${name}_ns`] = cpuNs(fn, iterations, rounds);
  }
  return [
    {
      name: 'ops',
      metrics,
      note: `CPU ns per operation, best of ${rounds} rounds of ${iterations}, over ${SIZE} fixed operands (money ≤ 6 decimals, odds 6, feed odds 12)`,
    },
  ];
}
