import { verifyCallback } from '@bookie/sdk/signing';
import { describe, expect, it } from 'vitest';
import { newSigningSecret } from './secrets.js';
import { signerOf } from './signing-for.js';
import { optionalCallbacksOf, type WhiteLabel } from './white-label.js';

const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

function wl(signing: Partial<WhiteLabel['signing']>): WhiteLabel {
  return {
    id: 'wl',
    name: 'wl',
    mode: 'turnkey',
    currencies: ['EUR'],
    callbackUrl: null,
    limits: { minStake: null, maxStake: null, maxPayout: null },
    betIntervalS: 0,
    betDelayS: 0,
    allowlist: [],
    allowedOrigins: [],
    signing: {
      enabled: true,
      secret: VECTOR.secret,
      previousSecret: null,
      previousSecretUntil: null,
      ...signing,
    },
    optionalCallbacks: optionalCallbacksOf({}, true),
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
}

const at = new Date(VECTOR.timestamp * 1000);

describe('callback signing per white label (D11)', () => {
  it('signs the Standard Webhooks known vector', () => {
    const h = signerOf(wl({}), () => 0).headers(VECTOR.id, VECTOR.body, at);
    expect(h).toEqual({
      'webhook-id': VECTOR.id,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': VECTOR.signature,
    });
    expect(verifyCallback(h, VECTOR.body, VECTOR.secret, { now: at })).toEqual({
      id: VECTOR.id,
      timestamp: VECTOR.timestamp,
    });
  });

  it('uses the clock when no time is given', () => {
    const h = signerOf(wl({}), () => at.getTime()).headers(VECTOR.id, VECTOR.body);
    expect(h['webhook-signature']).toBe(VECTOR.signature);
  });

  it('signs with both secrets during a rotation grace period, then with the new one only', () => {
    const fresh = newSigningSecret();
    const rotated = wl({
      secret: fresh,
      previousSecret: VECTOR.secret,
      previousSecretUntil: new Date(at.getTime() + 60_000),
    });
    const during = signerOf(rotated, () => 0).headers(VECTOR.id, VECTOR.body, at);
    const sigs = during['webhook-signature']?.split(' ') ?? [];
    expect(sigs).toHaveLength(2);
    expect(sigs[1]).toBe(VECTOR.signature);
    // a partner verifying with either secret accepts it
    expect(() => verifyCallback(during, VECTOR.body, VECTOR.secret, { now: at })).not.toThrow();
    expect(() => verifyCallback(during, VECTOR.body, fresh, { now: at })).not.toThrow();

    const later = new Date(at.getTime() + 61_000);
    const after = signerOf(rotated, () => 0).headers(VECTOR.id, VECTOR.body, later);
    expect(after['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(() => verifyCallback(after, VECTOR.body, VECTOR.secret, { now: later })).toThrow();
    expect(() => verifyCallback(after, VECTOR.body, fresh, { now: later })).not.toThrow();
  });

  it('sends no signature headers when signing is off', () => {
    const s = signerOf(wl({ enabled: false }), () => 0);
    expect(s.enabled).toBe(false);
    expect(s.headers(VECTOR.id, VECTOR.body, at)).toEqual({});
  });

  it('refuses a tampered body', () => {
    const h = signerOf(wl({}), () => 0).headers(VECTOR.id, VECTOR.body, at);
    expect(() => verifyCallback(h, '{"test": 2432232315}', VECTOR.secret, { now: at })).toThrow();
  });
});
