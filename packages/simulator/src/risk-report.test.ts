import { describe, expect, it } from 'vitest';
import { formatRiskReport } from './risk-report.js';

describe('formatRiskReport', () => {
  it('shows per market the largest exposure, the max_bet declines and the odds shaded, and the mean score by profile', () => {
    const lines = formatRiskReport({
      limit_eur: '500.000000',
      largest_exposure_eur: { '1x2': '512.300000', total: '120.000000' },
      max_bet_declines: { '1x2': 14, asian_handicap: 2 },
      odds_shaded: { '1x2': { outcomes: 5, publications: 11 }, goals: { outcomes: 1, publications: 1 } },
      mean_score_by_profile: {
        sharp: { players: 3, mean_score: '0.640000' },
        casual: { players: 20, mean_score: '0.49' },
      },
    });
    expect(lines[0]).toBe('Risk: liability limit 500.000000 EUR per outcome');
    expect(lines).toContain(
      '  1x2              largest exposure     512.300000 EUR, 14 bets declined max_bet, 5 outcomes shaded (11 prices)',
    );
    expect(lines).toContain(
      '  asian_handicap   largest exposure       0.000000 EUR, 2 bets declined max_bet, 0 outcomes shaded (0 prices)',
    );
    expect(lines).toContain(
      '  goals            largest exposure       0.000000 EUR, 0 bets declined max_bet, 1 outcomes shaded (1 prices)',
    );
    expect(lines.at(-1)).toBe('  mean risk score: sharp 0.640000 (3), casual 0.49 (20)');
  });
});
