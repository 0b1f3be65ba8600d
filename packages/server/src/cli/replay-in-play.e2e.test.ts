/**
 * `bookie replay --in-play` end to end, through the real command as a child process — Bookie on an embedded PGlite
 * (pinned whatever DATABASE_URL says; the Postgres pass of CI leaves this file out), the reference wallet as its own
 * process — each match played minute by minute with live bets under the white label's bet delay and cash-outs:
 * - the first round of the Premier League 2023/24 (10 matches) with the defaults;
 * - the whole season (380 matches) with the whole-season settings of docs/adr/0026-in-play-replay.md: matches played
 *   at the same time side by side (10 at most), 3 live bets each, the prices of quiet spells every 5 minutes and the
 *   bet delay without the instability extra. What depends on timing between matches is checked as bounds.
 * The report must reconcile exactly (cash-out payments included), and show live bets declined and accepted because
 * of what happened during their delay, and cash-outs of both kinds.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BetsOutLine, ReplayReport } from '@bookie/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { runBookie } from '../testing/process.js';

const SEASON = fileURLToPath(new URL('../data/E0_2324.csv', import.meta.resolve('@bookie/simulator/index')));
const dir = mkdtempSync(join(tmpdir(), 'bookie-replay-in-play-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `bookie replay --in-play` on PGlite; checks that it reconciled exactly, cash-out payments included. */
async function replayInPlay(args: string[], out: string, env: NodeJS.ProcessEnv = {}): Promise<ReplayReport> {
  const run = await runBookie(['replay', ...args, '--in-play', '--seed', '1', '--json', '--bets-out', out], {
    env: { DATABASE_URL: '', ...env },
  });
  expect(run.code, run.stderr.slice(-3000)).toBe(0);
  const report = JSON.parse(run.stdout) as ReplayReport;
  const c = report.reconciliation;
  expect(c.problems).toEqual([]);
  expect(c.ok).toBe(true);
  expect(c.cash_outs_match).toBe(true);
  return report;
}

/**
 * Cash-outs of both kinds, each paid once, below their fair value by the cash-out margin (5 % by default); the
 * audit lines: one per bet, live ones included, each full cash-out ending its bet cashed out (status 7).
 */
function expectCashOutsAndAuditLines(report: ReplayReport, out: string): void {
  const ip = report.in_play!;
  const co = ip.cash_outs;
  expect(co.accepted_full).toBeGreaterThan(0);
  expect(co.accepted_partial).toBeGreaterThan(0);
  expect(co.errors).toBe(0);
  expect(report.reconciliation.cash_out_paid).toBe(co.paid);
  expect(Number(co.margin_earned)).toBeGreaterThan(0);
  expect(Number(co.margin_pct)).toBeGreaterThan(4.5);
  expect(Number(co.margin_pct)).toBeLessThan(5.5);
  const lines = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as BetsOutLine);
  expect(lines).toHaveLength(report.bets.placed);
  expect(lines.filter((l) => l.status === 7)).toHaveLength(co.accepted_full);
  expect(lines.filter((l) => l.player_id.startsWith('live-'))).toHaveLength(ip.live_bets.placed);
}

describe('bookie replay --in-play', () => {
  it('refuses the in-play options without --in-play, and counts out of range, naming them', async () => {
    const [alone, zero, many] = await Promise.all([
      runBookie(['replay', SEASON, '--price-every', '5']),
      runBookie(['replay', SEASON, '--in-play', '--live-bets-per-match', '0']),
      runBookie(['replay', SEASON, '--in-play', '--matches-in-play', '101']),
    ]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--price-every');
    expect(alone.stderr).toContain('only with --in-play');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('--live-bets-per-match');
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('--matches-in-play');
  }, 120_000);

  it('plays the first round in play on PGlite: live bets meet the bet delay, cash-outs full and partial, the reconciliation holds', async () => {
    const csv = join(dir, 'E0_first_round.csv');
    writeFileSync(csv, `${readFileSync(SEASON, 'utf8').split('\n').slice(0, 11).join('\n')}\n`);
    const out = join(dir, 'bets.jsonl');
    const report = await replayInPlay([csv, '--bets', '60'], out);

    const ip = report.in_play!;
    console.info(`in play: ${JSON.stringify(ip)}`);
    expect(ip.matches).toBe(10);
    expect(ip.trading_commands).toBeGreaterThan(10 * 90); // a command (or more) per minute of each match
    // a goal's bet stop during the delay declines the bet
    const goal = ip.live_bets.goal_during_delay;
    expect(goal.declined_by_restriction.sport_event_bet_stop ?? 0).toBeGreaterThan(0);
    expect(goal.accepted).toBe(0);
    // new prices during the delay: strategy 1 declines the moved odds, strategy 3 takes them
    const odds = ip.live_bets.odds_during_delay;
    expect(odds.declined_by_restriction.selection_value ?? 0).toBeGreaterThan(0);
    expect(odds.accepted_at_new_odds).toBeGreaterThan(0);
    expectCashOutsAndAuditLines(report, out);
  }, 600_000);

  it('plays the 380 matches of 2023/24 in play on PGlite: the delay declines and takes live bets, cash-outs full and partial, the reconciliation holds', async () => {
    const out = join(dir, 'season-bets.jsonl');
    const started = performance.now();
    const report = await replayInPlay(
      [SEASON, '--bets', '760', '--live-bets-per-match', '3', '--price-every', '5'],
      out,
      // the bet delay alone (1 s): at max speed every event moved within the last 10 s of wall-clock time, so the
      // instability extra would add its 3 s to every live bet
      { DELAY_INSTABILITY_EXTRA_S: '0' },
    );

    const ip = report.in_play!;
    // measured, for the record (docs/adr/0026-in-play-replay.md "The test subset")
    console.info(
      `season in play: ${Math.round((performance.now() - started) / 1000)} s; ${JSON.stringify(report.timing)}; ` +
        JSON.stringify(ip),
    );
    expect(report.fixtures.matches).toBe(380);
    expect(ip.matches).toBe(380);
    expect(ip.live_bets.planned).toBe(380 * 3);
    expect(ip.live_bets.placed + ip.live_bets.not_placed).toBe(ip.live_bets.planned);
    expect(ip.live_bets.accepted).toBeGreaterThan(0);
    // declined because of the delay: a goal's bet stop, or moved prices under strategy 1
    const goal = ip.live_bets.goal_during_delay;
    const odds = ip.live_bets.odds_during_delay;
    expect(goal.declined_by_restriction.sport_event_bet_stop ?? 0).toBeGreaterThan(0);
    expect(goal.declined).toBeGreaterThan(goal.accepted);
    expect(odds.declined_by_restriction.selection_value ?? 0).toBeGreaterThan(0);
    // accepted because of the delay: strategy 3 takes the prices that moved meanwhile
    expect(odds.accepted_at_new_odds).toBeGreaterThan(0);
    expectCashOutsAndAuditLines(report, out);
  }, 2_400_000);
});
