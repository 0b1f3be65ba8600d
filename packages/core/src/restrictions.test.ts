import { describe, expect, it } from 'vitest';
import {
  isRestrictionType,
  RESTRICTION_TYPES,
  type Restriction,
  restriction,
  withKnownContext,
} from './restrictions.js';

describe('restrictions (spec 01 "Restriction", spec 03 table)', () => {
  it('lists the 24 types of spec 01', () => {
    expect(RESTRICTION_TYPES).toHaveLength(24);
    expect(new Set(RESTRICTION_TYPES).size).toBe(24);
    expect(isRestrictionType('max_bet')).toBe(true);
    expect(isRestrictionType('max_payout')).toBe(false);
  });

  it('builds typed restrictions and narrows on type', () => {
    const all: Restriction[] = [
      restriction('max_bet', { max_bet: '100.000000', sport_event_id: 'e1' }),
      restriction('bet_interval', { sport_event_id: 'e1', time_to_wait: '5' }),
      restriction('odd_status', {
        sport_event_id: 'e',
        market_id: 'm',
        odd_id: 'o',
        status: 1,
        is_active: false,
      }),
      restriction('internal_error', { code: 'place_retry_limit_reached' }),
      restriction('not_enough_balance', { actual_balance: '3.000000' }),
      restriction('player_limit', { types: ['daily_loss'] }),
    ];
    const described = all.map((r) => {
      switch (r.type) {
        case 'max_bet':
          return r.context.max_bet;
        case 'odd_status':
          return `${r.context.odd_id}:${r.context.is_active}`;
        case 'internal_error':
          return r.context.code;
        default:
          return r.type;
      }
    });
    expect(described).toEqual([
      '100.000000',
      'bet_interval',
      'o:false',
      'place_retry_limit_reached',
      'not_enough_balance',
      'player_limit',
    ]);
  });

  it('adds max_bet and sport_event_id where known, without overriding', () => {
    const input: Restriction[] = [
      restriction('min_bet', { min_bet: '1.000000' }),
      restriction('sport_event_bet_stop', { sport_event_id: 'e2' }),
    ];
    expect(withKnownContext(input, { max_bet: '50.000000', sport_event_id: 'e1' })).toEqual([
      { type: 'min_bet', context: { min_bet: '1.000000', max_bet: '50.000000', sport_event_id: 'e1' } },
      { type: 'sport_event_bet_stop', context: { sport_event_id: 'e2', max_bet: '50.000000' } },
    ]);
    expect(input[0]?.context).toEqual({ min_bet: '1.000000' });
  });
});
