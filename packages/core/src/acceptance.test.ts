import { describe, expect, it } from 'vitest';
import {
  type AcceptanceSportEvent,
  checkAcceptance,
  checkAcceptanceAll,
  isAcceptable,
} from './acceptance.js';

const event = (over: Partial<AcceptanceSportEvent> = {}): AcceptanceSportEvent => ({
  id: 'e1',
  bet_stop: false,
  fixture: { status: 0 },
  markets: {
    m1: {
      status: 0,
      odds: {
        o1: { value: '1.850000000000', status: 0, is_active: true },
        o2: { value: '2.000000000000', status: 0, is_active: false },
        o3: { value: '2.000000000000', status: 1, is_active: true },
      },
    },
    m2: { status: 1, odds: { o1: { value: '1.5', status: 0, is_active: true } } },
  },
  ...over,
});
const ref = (market_id = 'm1', odd_id = 'o1') => ({ sport_event_id: 'e1', market_id, odd_id });

describe('checkAcceptance (spec 02 "Rule for accepting bets")', () => {
  it('allows fixture status 0 and 1 with an active market and odd', () => {
    expect(checkAcceptance(event(), ref())).toEqual([]);
    expect(checkAcceptance(event({ fixture: { status: 1 } }), ref())).toEqual([]);
    expect(isAcceptable(event(), ref())).toBe(true);
  });

  it.each([2, 3, 4, 5, 6, 7, 8])('refuses fixture status %i', (status) => {
    expect(checkAcceptance(event({ fixture: { status } }), ref())).toEqual([
      { type: 'sport_event_status', context: { sport_event_id: 'e1', status } },
    ]);
  });

  it('unknown sport event, market, odd', () => {
    expect(checkAcceptance(undefined, ref())).toEqual([
      { type: 'sport_event_existence', context: { sport_event_id: 'e1' } },
    ]);
    expect(checkAcceptance(event(), ref('nope'))).toEqual([
      { type: 'market_existence', context: { sport_event_id: 'e1', market_id: 'nope' } },
    ]);
    expect(checkAcceptance(event(), ref('m1', 'nope'))).toEqual([
      { type: 'odd_existence', context: { sport_event_id: 'e1', market_id: 'm1', odd_id: 'nope' } },
    ]);
    expect(checkAcceptance(event(), ref('__proto__'))[0]?.type).toBe('market_existence');
    expect(checkAcceptance(event(), ref('m1', 'toString'))[0]?.type).toBe('odd_existence');
  });

  it('market status, odd status and is_active, bet stop', () => {
    expect(checkAcceptance(event(), ref('m2'))).toEqual([
      { type: 'market_status', context: { sport_event_id: 'e1', market_id: 'm2', status: 1 } },
    ]);
    expect(checkAcceptance(event(), ref('m1', 'o2'))).toEqual([
      {
        type: 'odd_status',
        context: { sport_event_id: 'e1', market_id: 'm1', odd_id: 'o2', status: 0, is_active: false },
      },
    ]);
    expect(checkAcceptance(event(), ref('m1', 'o3'))[0]?.context).toMatchObject({
      status: 1,
      is_active: true,
    });
    expect(checkAcceptance(event({ bet_stop: true }), ref())).toEqual([
      { type: 'sport_event_bet_stop', context: { sport_event_id: 'e1' } },
    ]);
  });

  it('returns every failing restriction', () => {
    const bad = event({ bet_stop: true, fixture: { status: 2 } });
    const m1 = bad.markets.m1;
    if (m1) m1.status = 2;
    expect(checkAcceptance(bad, ref('m1', 'o2')).map((r) => r.type)).toEqual([
      'sport_event_status',
      'sport_event_bet_stop',
      'market_status',
      'odd_status',
    ]);
    expect(checkAcceptance(bad, ref('m9')).map((r) => r.type)).toEqual([
      'sport_event_status',
      'sport_event_bet_stop',
      'market_existence',
    ]);
  });

  it('checks all selections of a bet', () => {
    const events = new Map([['e1', event()]]);
    const out = checkAcceptanceAll(
      (id) => events.get(id),
      [ref(), { sport_event_id: 'e9', market_id: 'm', odd_id: 'o' }, ref('m2')],
    );
    expect(out.map((r) => r.type)).toEqual(['sport_event_existence', 'market_status']);
  });
});
