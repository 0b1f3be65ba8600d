import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  BetDeclineBody,
  BetPlaceBody,
  BetSettleBody,
  BetUnsettleBody,
  CALLBACK_BODIES,
  CALLBACK_NAMES,
  CALLBACK_PATHS,
  CallbackErrorBody,
  CashOutAcceptedBody,
  CashOutDeclinedBody,
  callbackBodyIssues,
  InsuranceAcceptedBody,
  InsuranceDeclinedBody,
  isCallbackBody,
} from './callbacks.js';

const odd = {
  odd_id: '1',
  odd_ratio: '1.850000',
  odd_status: 0,
  match_id: 'sr:match:1',
  match_status: 1,
  market_id: '1',
  odd_updated_at: '2024-05-01T12:00:00+00:00',
  meta: {
    sport_event_info_provider_id: 'sr',
    sport_event_info_sport_id: '1',
    sport_event_info_tournament_id: '17',
    sport_event_info_market_type: '1',
    sport_event_info_state: 'prematch',
    sport_event_info_start_time: '2024-05-02T18:00:00+00:00',
    sport_event_info_competitors: [
      { id: 'c1', type: 2 },
      { id: 'c2', type: 2 },
    ],
  },
};

const place = {
  request_id: '6f1c1f3e-9a4b-4c1e-8f00-1d2e3f4a5b6c',
  bet_id: 'b1',
  bet_player_id: 'p1',
  bet_type: 1,
  bet_stake: '10.000000',
  bet_freebet_id: '',
  bet_insurance_id: '',
  bet_boost_id: '',
  total_odds_value: '1.850000',
  base_odds_value: '1.850000',
  bet_odds: [odd],
  bet_bet_builder_odds: [],
  bet_system_sizes: [1],
  bet_created_at: '2024-05-01T12:00:01.123+02:00',
  competitors: [{ id: 'c1', type: 2 }],
};

describe('callback bodies (the callback contract, the rules in docs/decisions.md)', () => {
  it('accepts a well-formed place body', () => {
    expect(Value.Check(BetPlaceBody, place)).toBe(true);
  });

  it.each([
    ['stake with 2 decimals (the decimal strings rule)', { bet_stake: '10.00' }],
    ['stake as a JSON number', { bet_stake: 10 }],
    ['stake with an exponent', { bet_stake: '1e1.000000' }],
    ['negative stake', { bet_stake: '-1.000000' }],
    ['bet_type 0 (the callback bet type rule)', { bet_type: 0 }],
    ['created_at without offset', { bet_created_at: '2024-05-01T12:00:00' }],
    ['missing freebet id', { bet_freebet_id: undefined }],
    ['unknown field', { extra: 1 }],
    ['request_id not a UUID', { request_id: 'abc' }],
    ['competitor type 3 (the competitor type rule)', { competitors: [{ id: 'c', type: 3 }] }],
  ])('rejects a place body with %s', (_name, patch) => {
    const body: Record<string, unknown> = { ...place, ...patch };
    for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
    expect(Value.Check(BetPlaceBody, body)).toBe(false);
  });

  it('rejects an odd status outside 0–7 (the odd statuses in callbacks rule)', () => {
    expect(Value.Check(BetPlaceBody, { ...place, bet_odds: [{ ...odd, odd_status: 8 }] })).toBe(false);
  });

  it('checks decline, settle, unsettle, insurance and cash-out bodies', () => {
    const base = { request_id: place.request_id, bet_id: 'b1' };
    expect(
      Value.Check(BetDeclineBody, {
        ...base,
        bet_player_id: 'p1',
        restrictions: [{ type: 'max_bet', context: { max_bet: 5 } }],
      }),
    ).toBe(true);
    expect(
      Value.Check(BetDeclineBody, {
        ...base,
        bet_player_id: 'p1',
        restrictions: [{ type: 'no_such_type', context: {} }],
      }),
    ).toBe(false);
    const settle = {
      ...base,
      bet_player_id: 'p1',
      bet_boost_id: '',
      total_odds_value: '1.850000',
      base_odds_value: '1.850000',
      bet_odds: [{ ...odd, odd_status: 1 }],
      bet_bet_builder_odds: [],
      settle_amount: '18.500000',
      settle_type: 1,
      restrictions: [],
    };
    expect(Value.Check(BetSettleBody, settle)).toBe(true);
    expect(Value.Check(BetSettleBody, { ...settle, settle_type: 4 })).toBe(false);
    expect(Value.Check(BetUnsettleBody, { ...base, bet_player_id: 'p1', unsettle_amount: '0.000000' })).toBe(
      true,
    );
    expect(
      Value.Check(InsuranceAcceptedBody, { ...base, bet_insurance_id: 'i1', refund_amount: '3.000000' }),
    ).toBe(true);
    expect(Value.Check(InsuranceDeclinedBody, { ...base, bet_insurance_id: 'i1' })).toBe(true);
    expect(
      Value.Check(CashOutAcceptedBody, {
        ...base,
        cash_out_order_id: 'o1',
        amount: '10.000000',
        refund_amount: '12.500000',
      }),
    ).toBe(true);
    expect(Value.Check(CashOutDeclinedBody, { ...base, cash_out_order_ids: ['o1', 'o2'] })).toBe(true);
  });

  it('shapes the error (see "callback errors" in docs/decisions.md) body', () => {
    expect(Value.Check(CallbackErrorBody, { error: { code: 'not_enough_balance' } })).toBe(true);
    expect(
      Value.Check(CallbackErrorBody, {
        error: { code: 'not_enough_balance', data: { actual_balance: '1.000000' } },
      }),
    ).toBe(true);
    expect(Value.Check(CallbackErrorBody, { error: { code: '' } })).toBe(false);
    expect(Value.Check(CallbackErrorBody, { error: { code: 'x', message: 'y' } })).toBe(false);
  });

  it('has one body schema and one distinct path per callback', () => {
    expect(Object.keys(CALLBACK_BODIES).sort()).toEqual([...CALLBACK_NAMES].sort());
    expect(new Set(Object.values(CALLBACK_PATHS)).size).toBe(CALLBACK_NAMES.length);
    expect(CALLBACK_PATHS.insuranceDeclined).toBe('/bet/insurances/decline');
    expect(CALLBACK_PATHS.cashOutAccepted).toBe('/bet/cash-out-orders/accepted');
  });

  it('reports issues by field path', () => {
    expect(isCallbackBody('place', place)).toBe(true);
    expect(callbackBodyIssues('place', place)).toEqual([]);
    const issues = callbackBodyIssues('place', { ...place, bet_odds: [{ ...odd, odd_ratio: '1.85' }] });
    expect(issues.map((i) => i.field)).toContain('bet_odds[0].odd_ratio');
    expect(isCallbackBody('heartbeat', null)).toBe(true);
  });
});
