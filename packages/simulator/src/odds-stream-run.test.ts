import { describe, expect, it } from 'vitest';
import { formatOddsStreamReport, type OddsStreamQuote, type OddsStreamReport } from './odds-stream-run.js';

const quote = (
  i: number,
  status: string,
  inPlay: boolean,
  available = status === 'OPEN',
): OddsStreamQuote => ({
  at: new Date(Date.UTC(2022, 6, 11, 10, i)).toISOString(),
  line: 10 + i,
  step: 'market',
  status,
  in_play: inPlay,
  market_status: status === 'OPEN' ? 0 : 1,
  prices: { '1': `1.${String(20 + i).padStart(2, '0')}`, '2': '5.3' },
  probability: '0.812800000000',
  available,
  ...(available ? {} : { reason: 'market_suspended' }),
  refund_amount: available ? `9.${String(100 + i)}000` : '0.000000',
});

const report = (quotes: OddsStreamQuote[]): OddsStreamReport => ({
  source: { betfair_market_id: '1.5', messages: 300, first_at: 'a', last_at: 'b' },
  sport_event_id: 'e',
  market_id: '1.5',
  runners: [
    { id: '1', sort_priority: 1, result: 'WINNER' },
    { id: '2', sort_priority: 2, result: 'LOSER' },
  ],
  commands: { create: 1, market: 60 },
  bet: { id: 'b1', runner: '1', stake: '10.000000', odds: '1.230000', placed_at: 'p', line: 6, status: 3 },
  quotes,
  settlement: {
    winner: '1',
    bet_status: 3,
    settle_amount: '12.300000',
    wallet_available: '1002.300000',
    wallet_ledger_ok: true,
  },
});

describe('formatOddsStreamReport', () => {
  it('samples the price path, keeps every status change and the last quote, and ends with the settlement', () => {
    const quotes = [
      ...Array.from({ length: 30 }, (_, i) => quote(i, 'OPEN', false)),
      quote(30, 'SUSPENDED', false),
      ...Array.from({ length: 29 }, (_, i) => quote(31 + i, 'OPEN', true)),
    ];
    const text = formatOddsStreamReport(report(quotes), 6);
    const rows = text.split('\n').filter((l) => /^ {2}2022-/.test(l));
    // every 10th quote, the suspension, the first in play, the last one
    expect(rows.map((l) => l.slice(2, 18))).toEqual([
      '2022-07-11 10:00',
      '2022-07-11 10:10',
      '2022-07-11 10:20',
      '2022-07-11 10:30',
      '2022-07-11 10:31',
      '2022-07-11 10:40',
      '2022-07-11 10:50',
      '2022-07-11 10:59',
    ]);
    expect(rows[3]).toContain('none (market_suspended)');
    expect(rows[4]).toContain('OPEN in-play');
    expect(rows[0]).toMatch(/1\.20\s+5\.3\s+0\.8128\s+9\.100000$/);
    expect(text).toContain('Bet b1: 10.000000 on selection 1 at 1.230000');
    expect(text.trim().split('\n').at(-1)).toBe(
      "Result: winner 1; the bet's status 3, settle amount 12.300000; wallet 1002.300000 available, ledger OK",
    );
  });
});
