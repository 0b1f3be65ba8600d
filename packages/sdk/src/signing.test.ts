import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  generateSigningSecret,
  readHeader,
  SignatureVerificationError,
  signCallback,
  verifyCallback,
} from './signing.js';

// The Standard Webhooks known vector (https://github.com/standard-webhooks/standard-webhooks).
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const timestamp = 1614265330;
const body = '{"test": 2432232314}';
const expected = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const at = (s: number) => new Date(s * 1000);

function failure(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof SignatureVerificationError) return e.reason;
    throw e;
  }
  return undefined;
}

describe('signCallback / verifyCallback (DECISIONS D11)', () => {
  it('signs the known vector', () => {
    expect(signCallback({ secret, id, timestamp, body })).toEqual({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': expected,
    });
    expect(signCallback({ secret, id, timestamp: at(timestamp), body: Buffer.from(body) })).toMatchObject({
      'webhook-signature': expected,
    });
  });

  it('verifies the known vector within the tolerance, from bytes or a string, any header case', () => {
    const headers = {
      'Webhook-Id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': expected,
    };
    expect(verifyCallback(headers, body, secret, { now: at(timestamp + 300) })).toEqual({ id, timestamp });
    expect(
      verifyCallback(new Headers(headers), new TextEncoder().encode(body), secret, { now: at(timestamp) }),
    ).toEqual({ id, timestamp });
  });

  it('refuses a stale or future timestamp, honouring toleranceSeconds', () => {
    const headers = signCallback({ secret, id, timestamp, body });
    expect(failure(() => verifyCallback(headers, body, secret, { now: at(timestamp + 301) }))).toBe(
      'timestamp_too_old',
    );
    expect(failure(() => verifyCallback(headers, body, secret, { now: at(timestamp - 301) }))).toBe(
      'timestamp_too_new',
    );
    expect(
      failure(() => verifyCallback(headers, body, secret, { now: at(timestamp + 20), toleranceSeconds: 10 })),
    ).toBe('timestamp_too_old');
  });

  it('refuses a changed body, id, secret, or missing headers', () => {
    const headers = signCallback({ secret, id, timestamp, body });
    const now = at(timestamp);
    expect(failure(() => verifyCallback(headers, '{"test": 2432232315}', secret, { now }))).toBe(
      'no_matching_signature',
    );
    expect(failure(() => verifyCallback({ ...headers, 'webhook-id': 'msg_x' }, body, secret, { now }))).toBe(
      'no_matching_signature',
    );
    expect(failure(() => verifyCallback(headers, body, generateSigningSecret(), { now }))).toBe(
      'no_matching_signature',
    );
    expect(failure(() => verifyCallback({ 'webhook-id': id }, body, secret, { now }))).toBe(
      'missing_headers',
    );
    expect(
      failure(() => verifyCallback({ ...headers, 'webhook-timestamp': '1e9' }, body, secret, { now })),
    ).toBe('invalid_timestamp');
  });

  it('accepts any of several signatures and secrets (rotation)', () => {
    const other = generateSigningSecret();
    const h = signCallback({ secret: other, id, timestamp, body });
    const both = { ...h, 'webhook-signature': `v2,abc ${expected}` };
    expect(verifyCallback(both, body, [other, secret], { now: at(timestamp) }).id).toBe(id);
    expect(verifyCallback(h, body, [secret, other], { now: at(timestamp) }).id).toBe(id);
  });

  it('agrees with the standardwebhooks library on any id, time, body and secret', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.string({ maxLength: 300 }),
        fc.boolean(),
        (key, msgId, ts, payload, prefixed) => {
          const b64 = Buffer.from(key).toString('base64');
          const s = prefixed ? `whsec_${b64}` : b64;
          const ours = signCallback({ secret: s, id: msgId, timestamp: ts, body: payload });
          expect(ours['webhook-signature']).toBe(new Webhook(s).sign(msgId, new Date(ts * 1000), payload));
          expect(verifyCallback(ours, payload, s, { now: at(ts) })).toEqual({ id: msgId, timestamp: ts });
        },
      ),
    );
  });

  it('verifies body bytes as their UTF-8 string: valid bytes as they are, invalid sequences replaced', () => {
    const now = at(timestamp);
    const text = '{"name":"Zoë 🎉"}';
    const signed = signCallback({ secret, id, timestamp, body: text });
    expect(verifyCallback(signed, Buffer.from(text), secret, { now }).id).toBe(id);
    expect(verifyCallback(signed, new Uint8Array(Buffer.from(text)), secret, { now }).id).toBe(id);
    // invalid UTF-8 (a lone continuation byte and a truncated sequence): checked as the decoded string is
    const invalid = Buffer.concat([
      Buffer.from('{"a":"'),
      Buffer.from([0x80, 0xe2, 0x82]),
      Buffer.from('"}'),
    ]);
    const overString = signCallback({ secret, id, timestamp, body: invalid.toString() });
    expect(verifyCallback(overString, invalid, secret, { now }).id).toBe(id);
    expect(failure(() => verifyCallback(signed, invalid, secret, { now }))).toBe('no_matching_signature');
  });

  it('refuses signatures that differ only in length, encoding or version', () => {
    const now = at(timestamp);
    const sig = expected.slice(3);
    const h = (signature: string) => ({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
    });
    for (const bad of [
      `v1,${sig.slice(0, -1)}`,
      `v1,${sig}=`,
      `v1,${sig.slice(0, -1)}\u00e9`,
      `v2,${sig}`,
      `v1 ${sig}`,
      'v1,',
      '',
    ]) {
      expect(
        failure(() => verifyCallback(h(bad), body, secret, { now })),
        bad,
      ).toBe(bad === '' ? 'missing_headers' : 'no_matching_signature');
    }
    expect(verifyCallback(h(`v1,${sig},extra`), body, secret, { now }).id).toBe(id);
    expect(verifyCallback(h(`v1a,x v1,${sig}`), body, secret, { now }).id).toBe(id);
  });

  it('reads headers in any case, the first present one when a name repeats', () => {
    expect(readHeader({ 'Webhook-Id': 'a', 'webhook-id': 'b' }, 'webhook-id')).toBe('a');
    expect(readHeader({ 'WEBHOOK-ID': undefined, 'webhook-id': 'b' }, 'Webhook-Id')).toBe('b');
    expect(readHeader({ 'webhook-id': ['c', 'd'] }, 'webhook-id')).toBe('c');
    expect(readHeader({ other: 'x' }, 'webhook-id')).toBeUndefined();
    expect(readHeader(new Headers({ 'Webhook-Id': 'e' }), 'webhook-id')).toBe('e');
  });
});
