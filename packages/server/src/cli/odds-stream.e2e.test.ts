/**
 * `bookie replay --odds-stream`: the committed excerpt of a real Betfair Exchange recording (cricket MATCH_ODDS,
 * pre-match → suspended → in play → suspended → closed with a WINNER) through the real command — Bookie on its own
 * database, the reference wallet as its own process. The test reads the recording itself (its own JSON reading) and
 * checks the report's quotes against it and against core's cash-out value function.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  cashOutValue,
  EXPRESS_CAP_EUR,
  formatMoney,
  marketProbabilities,
  ODD_STATUS,
  parseDecimal,
  type Rational,
} from '@bookie/core';
import type { OddsStreamReport } from '@bookie/simulator';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/database.js';
import { runBookie } from '../testing/process.js';

const EXCERPT = fileURLToPath(
  new URL(
    '../data/betfair-1.200806927-cricket-match-odds.jsonl',
    import.meta.resolve('@bookie/simulator/index'),
  ),
);
const MARGIN = '0.05';
const d = (v: string): Rational => parseDecimal(v, { field: 'x', maxDecimals: 12 });

/** The recording as this test reads it: after each line, each runner's last traded price, the status and in-play. */
function readRecording() {
  const ltp = new Map<string, number>();
  let status = '';
  let inPlay = false;
  const after = new Map<number, { ltp: Record<string, number>; status: string; inPlay: boolean }>();
  readFileSync(EXCERPT, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (!text.trim()) return;
      for (const mc of JSON.parse(text).mc) {
        if (mc.marketDefinition) {
          status = mc.marketDefinition.status;
          inPlay = mc.marketDefinition.inPlay;
        }
        for (const rc of mc.rc ?? []) if (rc.ltp !== undefined) ltp.set(String(rc.id), rc.ltp);
      }
      after.set(i + 1, { ltp: Object.fromEntries(ltp), status, inPlay });
    });
  return after;
}

describe('bookie replay --odds-stream', () => {
  it('refuses a missing recording and a replay with nothing to replay, naming them', async () => {
    const [missing, nothing] = await Promise.all([
      runBookie(['replay', '--odds-stream', '/nonexistent/stream.jsonl']),
      runBookie(['replay']),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--odds-stream');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('--odds-stream');
  }, 120_000);

  it(`real Betfair prices drive the market through the whole match and the cash-out quote follows them (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, async () => {
    const db = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : undefined;
    const r = await runBookie(
      ['replay', '--odds-stream', EXCERPT, '--json', ...(db?.url ? ['--db-url', db.url] : [])],
      { env: { CASH_OUT_MARGIN: MARGIN } },
    );
    await db?.close();
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    const report = JSON.parse(r.stdout) as OddsStreamReport;
    const recording = readRecording();

    // the bet: the favourite (first runner), before the start, at the price Betfair traded then
    const back = report.bet.runner;
    expect(back).toBe('228749');
    const betLine = recording.get(report.bet.line)!;
    expect(betLine.inPlay).toBe(false);
    expect(Number(report.bet.odds)).toBe(betLine.ltp[back]);
    const stake = d(report.bet.stake);
    const odds = d(report.bet.odds);
    const other = report.runners.find((x) => x.id !== back)!.id;

    // every quote: on the prices of its line; offered exactly as core values it while open, never while suspended
    expect(report.quotes.length).toBeGreaterThan(150);
    for (const q of report.quotes) {
      const line = recording.get(q.line)!;
      expect(q.status).toBe(line.status);
      expect(q.in_play).toBe(line.inPlay);
      for (const [id, price] of Object.entries(line.ltp)) expect(Number(q.prices[id])).toBe(price);
      if (q.status !== 'OPEN') {
        expect(q).toMatchObject({ available: false, reason: 'market_suspended', refund_amount: '0.000000' });
        continue;
      }
      const [p] = marketProbabilities([
        { value: d(q.prices[back]!), active: true },
        { value: d(q.prices[other]!), active: true },
      ]);
      expect(q.probability).toBe(p);
      const value = cashOutValue({
        betType: 'single',
        stake,
        legs: [{ odds, status: ODD_STATUS.NOT_RESULTED, winProbability: d(p!) }],
        margin: d(MARGIN),
        expressCap: EXPRESS_CAP_EUR,
      });
      expect(q, `line ${q.line}`).toMatchObject({ available: true, refund_amount: formatMoney(value.value) });
    }
    // the match is covered: quotes before the start, in play, and refused during both suspensions
    expect(report.quotes.filter((q) => q.available && !q.in_play).length).toBeGreaterThan(20);
    expect(report.quotes.filter((q) => q.available && q.in_play).length).toBeGreaterThan(100);
    const suspended = report.quotes.filter((q) => q.status === 'SUSPENDED');
    expect(suspended.some((q) => !q.in_play)).toBe(true);
    expect(suspended.some((q) => q.in_play)).toBe(true);

    // the quote follows the price: when only the backed runner's price moves, the quote moves the other way
    let opposite = 0;
    let flat = 0;
    for (let i = 1; i < report.quotes.length; i++) {
      const a = report.quotes[i - 1]!;
      const b = report.quotes[i]!;
      if (!a.available || !b.available || a.prices[other] !== b.prices[other]) continue;
      const price = Math.sign(Number(b.prices[back]) - Number(a.prices[back]));
      if (price === 0) continue;
      const quote = Math.sign(Number(b.refund_amount) - Number(a.refund_amount));
      expect(quote, `lines ${a.line} → ${b.line}`).not.toBe(price);
      if (quote === -price) opposite++;
      else flat++;
    }
    // (a tick at the extremes, 1.01 against 1000, can move the value by less than the 3-decimal rounding)
    expect(opposite).toBeGreaterThan(50);
    expect(flat).toBeLessThan(opposite / 10);
    // and over the match: the winner shortens to 1.01–1.02 in play, the quote rises from the pre-match ones
    const open = report.quotes.filter((q) => q.available);
    const atShortest = open.filter((q) => Number(q.prices[back]) <= 1.02);
    expect(atShortest.length).toBeGreaterThan(0);
    const preMatchMax = Math.max(...open.filter((q) => !q.in_play).map((q) => Number(q.refund_amount)));
    for (const q of atShortest) expect(Number(q.refund_amount)).toBeGreaterThan(preMatchMax);

    // settlement by Betfair's WINNER: the backed runner won, the bet pays stake × odds through the wallet
    expect(report.runners).toEqual([
      { id: '228749', sort_priority: 1, result: 'WINNER' },
      { id: '2857977', sort_priority: 2, result: 'LOSER' },
    ]);
    const payout = formatMoney(parseDecimal('12.3', { field: 'payout' }));
    expect(report.settlement).toEqual({
      winner: '228749',
      bet_status: 3,
      settle_amount: payout,
      wallet_available: '1002.300000',
      wallet_ledger_ok: true,
    });
    expect(report.bet).toMatchObject({ stake: '10.000000', odds: '1.230000', status: 3 });
  }, 300_000);
});
