import { randomUUID } from 'node:crypto';
import type { CreateSportEventBody, MarketInput } from '@bookie/contracts';

/** Test and benchmark data: what a bet's selection stores of a {@link sampleEvent} (prematch, market type 1). */
export const sampleEventInfo = {
  provider_id: 'bookie',
  sport_id: 'football',
  tournament_id: 't1',
  market_type: '1',
  state: 'prematch',
  start_time: '2030-06-01T18:00:00Z',
  competitors: [
    { id: 'c1', type: 2 },
    { id: 'c2', type: 2 },
  ],
};

/**
 * Test and benchmark data: a football fixture with `markets` 1X2-style markets of 3 odds each.
 * Not used in production paths.
 */
export function sampleEvent(
  opts: { id?: string; markets?: number; name?: string } = {},
): CreateSportEventBody {
  const id = opts.id ?? randomUUID();
  const markets: MarketInput[] = [];
  for (let m = 1; m <= (opts.markets ?? 2); m++) markets.push(sampleMarket(String(m)));
  return {
    id,
    meta: { bo: 1 },
    fixture: {
      type: 1,
      status: 0,
      sport_id: 'football',
      template: '{$competitor1} vs {$competitor2}',
      start_time: '2030-06-01T18:00:00Z',
      tournament: { id: 't1', name: 'Premier League', master_id: 'm-t1', country_code: 'GB' },
      competitors: {
        c1: {
          id: 'c1',
          meta: {},
          name: opts.name ?? 'Arsenal',
          type: 2,
          scores: { total: { id: 'total', type: 1, number: 0, points: '0' } },
          home_away: 1,
          master_id: 'm-c1',
          template_position: 1,
        },
        c2: {
          id: 'c2',
          meta: {},
          name: 'Chelsea',
          type: 2,
          scores: { total: { id: 'total', type: 1, number: 0, points: '0' } },
          home_away: 2,
          master_id: 'm-c2',
          template_position: 2,
        },
      },
      live_coverage: true,
    },
    markets,
  };
}

/** A market with three odds ("1", "2", "3"), active. */
export function sampleMarket(id: string, base = 1.5): MarketInput {
  return {
    id,
    type_id: 1,
    template: '1x2',
    specifiers: {},
    odds: ['1', '2', '3'].map((o, i) => ({
      id: o,
      value: (base + i).toFixed(3),
      template: `{$competitor${i + 1}}`,
    })),
  };
}
