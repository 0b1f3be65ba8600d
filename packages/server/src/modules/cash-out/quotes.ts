import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a quote promises: this amount of this bet's stake for this refund, until `expiresAt` (Unix ms). */
export interface SignedQuote {
  betId: string;
  amount: string;
  refundAmount: string;
  expiresAt: number;
}

const mac = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/** The quote id: the quote's terms and their signature, so any process can check it without storing it. */
export function signQuote(key: string, q: SignedQuote): string {
  const payload = Buffer.from(JSON.stringify([q.betId, q.amount, q.refundAmount, q.expiresAt])).toString(
    'base64url',
  );
  return `${payload}.${mac(key, payload)}`;
}

/** The terms of a quote id signed with `key`, or undefined when it is not one. */
export function readQuote(key: string, id: string): SignedQuote | undefined {
  const [payload, sig, ...rest] = id.split('.');
  if (!payload || !sig || rest.length > 0) return undefined;
  const want = Buffer.from(mac(key, payload));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return undefined;
  try {
    const [betId, amount, refundAmount, expiresAt] = JSON.parse(Buffer.from(payload, 'base64url').toString());
    if (typeof betId !== 'string' || typeof amount !== 'string' || typeof refundAmount !== 'string')
      return undefined;
    if (typeof expiresAt !== 'number') return undefined;
    return { betId, amount, refundAmount, expiresAt };
  } catch {
    return undefined;
  }
}
