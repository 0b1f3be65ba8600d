/**
 * A full real season (Premier League 2023/24, 380 matches) replayed at max speed through the
 * whole platform by the real command — `bookie replay … --json --bets-out` as a child process: Bookie on an embedded
 * PGlite, the reference wallet as its own process, a seeded crowd placing ≥ 5,000 bets through the frame API —
 * ending with the reconciliation ok. It pins PGlite whatever DATABASE_URL says (CI runs it in the PGlite pass only;
 * `cli/replay.e2e.test.ts` replays a few matches on Postgres). Then the `--bets-out` lines are audited against the
 * CSV with code of this file only (its own CSV reading and its own arithmetic, not the simulator's results or
 * Bookie's settlement): every Asian-handicap (and 1X2 and total) selection's status equals the result of the real
 * score, every odd status 1–5 is seen, and the settle amounts equal stake × the leg factors of DECISIONS D15,
 * rounded as D16 says.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// test-only use of the server's process helper (the simulator's sources never import the server)
import { runBookie } from '@bookie/server/testing/process';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import type { BetsOutLine, ReplayReport } from './report.js';
import { dataFile } from './testing.js';

const dir = mkdtempSync(join(tmpdir(), 'bookie-replay-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// ---------------------------------------------------------------------------------- the audit's own arithmetic

/** An exact fraction of bigints. */
type Q = { n: bigint; d: bigint };
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
const q = (n: bigint, d = 1n): Q => {
  const g = gcd(n, d) || 1n;
  return d < 0n ? { n: -n / g, d: -d / g } : { n: n / g, d: d / g };
};
const qmul = (a: Q, b: Q) => q(a.n * b.n, a.d * b.d);
const qadd = (a: Q, b: Q) => q(a.n * b.d + b.n * a.d, a.d * b.d);
/** A decimal string as a fraction. */
const dec = (s: string): Q => {
  const [i, f = ''] = s.split('.');
  return q(BigInt(`${i}${f}`), 10n ** BigInt(f.length));
};
/** Round half up to 3 decimals (D16), written with 6 (payouts are never negative). */
const money3 = (x: Q): string => {
  const scaled = (x.n * 1000n * 2n + x.d) / (2n * x.d); // floor(x·1000 + 1/2)
  const s = scaled.toString().padStart(4, '0');
  return `${s.slice(0, -3)}.${s.slice(-3)}000`;
};

/** Odd status from goals "for" and "against" and a line in quarters (home line × 4), as a bookmaker settles it. */
function lineStatus(forGoals: number, against: number, quarters: number): number {
  // a bet on line L wins when for + L − against > 0; whole and half lines are one bet, quarter lines two halves
  const one = (q4: number) => Math.sign(4 * (forGoals - against) + q4); // 1 win, 0 refund, −1 loss
  if (quarters % 2 === 0) return { 1: 1, 0: 5, [-1]: 2 }[one(quarters)]!;
  const a = one(quarters - 1);
  const b = one(quarters + 1);
  if (a === b) return a > 0 ? 1 : 2;
  if (a + b === 1) return 3; // win + refund
  if (a + b === -1) return 4; // loss + refund
  throw new Error(`impossible halves ${a}/${b}`);
}

/** D15 leg factor. */
function factor(status: number, odds: Q): Q {
  switch (status) {
    case 1:
      return odds;
    case 2:
      return q(0n);
    case 3:
      return qmul(qadd(odds, q(1n)), q(1n, 2n));
    case 4:
      return q(1n, 2n);
    default:
      return q(1n);
  }
}

function combinations<T>(items: readonly T[], k: number): T[][] {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [head, ...rest] = items;
  return [...combinations(rest, k - 1).map((c) => [head as T, ...c]), ...combinations(rest, k)];
}

interface CsvMatch {
  home: number;
  away: number;
}

/** The CSV read directly: (date YYYY-MM-DD, home, away) → full-time goals. */
function readScores(file: string): Map<string, CsvMatch> {
  const rows = parse(readFileSync(file), { columns: true, bom: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  const out = new Map<string, CsvMatch>();
  for (const r of rows) {
    const [d, m, y] = (r.Date ?? '').split('/');
    const date = `${(y ?? '').length === 2 ? `20${y}` : y}-${m}-${d}`;
    out.set(`${date}|${r.HomeTeam}|${r.AwayTeam}`, { home: Number(r.FTHG), away: Number(r.FTAG) });
  }
  return out;
}

describe('bookie replay of a full real season', () => {
  it('replays 380 matches at max speed with ≥ 5,000 bets, reconciles, and settles every bet as the score says', async () => {
    const out = join(dir, 'bets.jsonl');
    const csv = dataFile('E0_2324.csv');
    const t0 = performance.now();
    const run = await runBookie(
      ['replay', csv, '--speed', 'max', '--seed', '1', '--json', '--bets-out', out],
      {
        env: { DATABASE_URL: '' },
      },
    );
    const wallS = (performance.now() - t0) / 1000;
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const report = JSON.parse(run.stdout) as ReplayReport;
    // measured, for the record (docs/adr/0011-replay-and-demo.md "Performance")
    console.info(
      `replay of E0 2023/24: ${report.bets.placed} bets (${report.bets.accepted} accepted), ` +
        `${report.timing.trading_commands} trading commands; replay ${report.timing.replay_s.toFixed(1)} s ` +
        `(${report.timing.bets_per_s.toFixed(1)} bets/s), command ${wallS.toFixed(1)} s in all`,
    );

    expect(report.fixtures.matches).toBe(380);
    expect(report.timing.trading_commands).toBe(3039);
    expect(report.bets.placed).toBeGreaterThanOrEqual(5000);
    expect(report.bets.accepted).toBeGreaterThan(report.bets.placed * 0.8);
    expect(report.bets.declined).toBeGreaterThan(0); // some bets are declined, as expected
    expect(report.bets.declined_by_restriction.selection_value).toBeGreaterThan(0); // odds moved
    expect(report.bets.declined_by_restriction.max_bet).toBeGreaterThan(0); // limits
    expect(report.bets.declined_by_restriction.min_bet).toBeGreaterThan(0);
    expect(report.reconciliation.problems).toEqual([]);
    expect(report.reconciliation).toMatchObject({
      ok: true,
      wallet_balances_match: true,
      wallet_ledger_matches_bets: true,
      no_holds_left: true,
      every_accepted_bet_settled: true,
      bookie_report_ok: true,
      wallet_invariant_ok: true,
      outbox_drained: true,
    });
    expect(report.settled.bets).toBe(report.bets.accepted);
    // the other white labels: bets reported for Bookie's risk decision (mixed combos settled by the partner, some
    // declined on its side) and for advice, reconciled against the settle callbacks their partner received
    const reported = report.reported;
    expect(reported?.problems).toEqual([]);
    expect(reported?.mts.accepted).toBeGreaterThan(0);
    expect(reported?.mts.mixed_combos).toBeGreaterThan(0);
    expect(reported?.mts.withdrawn).toBeGreaterThan(0);
    expect(reported?.mts.settled).toBe((reported?.mts.accepted ?? 0) - (reported?.mts.withdrawn ?? 0));
    expect(reported?.advisory.updated).toBe(reported?.advisory.reported);

    // ------------------------------------------------------------------------- the audit of --bets-out
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as BetsOutLine);
    expect(lines).toHaveLength(report.bets.placed);
    const scores = readScores(csv);
    const seen = new Set<number>();
    let asian = 0;
    let audited = 0;
    for (const bet of lines) {
      expect(bet).toMatchObject({ currency: 'EUR' });
      expect(['single', 'express', 'system']).toContain(bet.bet_type);
      const accepted = bet.state === 'settled';
      for (const s of bet.selections) {
        expect(s.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        const score = scores.get(`${s.date}|${s.home}|${s.away}`);
        expect(score, `${s.date} ${s.home} v ${s.away}`).toBeDefined();
        if (!accepted) continue;
        let want: number;
        if (s.market_type === '1x2') {
          expect(s.line).toBeNull();
          const sign = Math.sign(score!.home - score!.away);
          want = { home: sign > 0, draw: sign === 0, away: sign < 0 }[s.outcome as 'home'] ? 1 : 2;
        } else if (s.market_type === 'total') {
          expect(s.line).toBe('2.5');
          const goals = score!.home + score!.away;
          want = s.outcome === 'over' ? (goals > 2.5 ? 1 : 2) : goals < 2.5 ? 1 : 2;
        } else {
          expect(s.market_type).toBe('asian_handicap');
          const quarters = Math.round(Number(s.line) * 4);
          expect(quarters / 4).toBe(Number(s.line));
          want =
            s.outcome === 'home'
              ? lineStatus(score!.home, score!.away, quarters)
              : lineStatus(score!.away, score!.home, -quarters);
          asian++;
        }
        expect(s.status, `${bet.bet_id} ${s.home} v ${s.away} ${s.market_type} ${s.line} ${s.outcome}`).toBe(
          want,
        );
        seen.add(s.status);
      }
      if (!accepted) {
        expect(bet.settle_amount).toBeNull();
        continue;
      }
      // the payout from the statuses and the accepted odds (D15, D16), unless a cap applies
      const stake = dec(bet.stake);
      const legs = bet.selections.map((s) => factor(s.status, dec(s.odds)));
      let payout: Q;
      if (bet.bet_type === 'system') {
        const combos = bet.system_sizes.flatMap((k) => combinations(legs, k));
        const part = qmul(stake, q(1n, BigInt(combos.length)));
        payout = combos.reduce((acc, c) => qadd(acc, c.reduce(qmul, part)), q(0n));
      } else payout = legs.reduce(qmul, stake);
      if (payout.n > 50_000n * payout.d) continue; // the express cap (D17) or the max payout: not audited here
      expect(bet.settle_amount, bet.bet_id).toBe(money3(payout));
      const p = dec(bet.settle_amount!);
      const cmp = p.n * stake.d - stake.n * p.d;
      expect(bet.settle_type).toBe(cmp > 0 ? 1 : cmp === 0n ? 2 : 3); // D3
      audited++;
    }
    expect(asian).toBeGreaterThan(500);
    expect(audited).toBeGreaterThan(report.settled.bets * 0.95);
    expect([...seen].sort()).toEqual([1, 2, 3, 4, 5]);
  }, 3_600_000);
});
