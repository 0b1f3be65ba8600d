import { createHmac, timingSafeEqual } from 'node:crypto';

const mac = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/**
 * Terms and their signature in one string (`<base64url JSON>.<HMAC-SHA256 base64url>`), so any process holding the key
 * can check them without storing them. Cash-out quotes and bet builder quotes are both written this way.
 */
export function signTerms(key: string, terms: unknown): string {
  const payload = Buffer.from(JSON.stringify(terms)).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/** The terms of a string signed with `key` by {@link signTerms}, or undefined when it is not one. */
export function readTerms(key: string, signed: string): unknown {
  const [payload, sig, ...rest] = signed.split('.');
  if (!payload || !sig || rest.length > 0) return undefined;
  const want = Buffer.from(mac(key, payload));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString());
  } catch {
    return undefined;
  }
}
