import { CallbackErrorBody, FINAL_PLACE_ERROR_CODES } from '@bookie/contracts';
import { rational } from '@bookie/core';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import {
  authCredentialsExpired,
  authSessionUnknown,
  type CallbackError,
  callbackError,
  isCallbackError,
  notEnoughBalance,
  playerLimitCrossed,
} from './errors.js';
import { parseForeignParams } from './foreign-params.js';

describe('D9 error helpers', () => {
  it('build the D9 body of each standard code, status 400', () => {
    const cases: [CallbackError, unknown][] = [
      [
        notEnoughBalance('5.000000'),
        { error: { code: 'not_enough_balance', data: { actual_balance: '5.000000' } } },
      ],
      [
        notEnoughBalance(rational(1n, 3n)),
        { error: { code: 'not_enough_balance', data: { actual_balance: '0.333333' } } },
      ],
      [
        playerLimitCrossed(['daily_loss']),
        { error: { code: 'player_limit_crossed', data: { types: ['daily_loss'] } } },
      ],
      [authSessionUnknown(), { error: { code: 'auth_session_unknown' } }],
      [authCredentialsExpired(), { error: { code: 'auth_credentials_expired' } }],
      [
        callbackError('bet_unknown', { bet_id: 'b' }),
        { error: { code: 'bet_unknown', data: { bet_id: 'b' } } },
      ],
    ];
    for (const [err, body] of cases) {
      expect(err.status).toBe(400);
      expect(err.body).toEqual(body);
      expect(Value.Check(CallbackErrorBody, err.body)).toBe(true);
      expect(isCallbackError(err)).toBe(true);
    }
    expect(cases.slice(0, 5).map(([e]) => e.code)).toEqual([
      FINAL_PLACE_ERROR_CODES[0],
      ...FINAL_PLACE_ERROR_CODES,
    ]);
    expect(isCallbackError(new Error('x'))).toBe(false);
  });
});

describe('parseForeignParams (D7)', () => {
  it('gives {} when absent and the object when present', () => {
    expect(parseForeignParams(undefined)).toEqual({});
    expect(parseForeignParams(' ')).toEqual({});
    expect(parseForeignParams('{"session":"s1","n":2}')).toEqual({ session: 's1', n: 2 });
  });
  it.each(['[1]', 'null', '"s"', '{bad', '3'])('rejects %s', (raw) => {
    expect(() => parseForeignParams(raw)).toThrow(/foreign-params/);
  });
});
