import { readTerms, signTerms } from '../../platform/signed-terms.js';

/** What a quote promises: this amount of this bet's stake for this refund, until `expiresAt` (Unix ms). */
export interface SignedQuote {
  betId: string;
  amount: string;
  refundAmount: string;
  expiresAt: number;
}

/** The quote id: the quote's terms and their signature, so any process can check it without storing it. */
export function signQuote(key: string, q: SignedQuote): string {
  return signTerms(key, [q.betId, q.amount, q.refundAmount, q.expiresAt]);
}

/** The terms of a quote id signed with `key`, or undefined when it is not one. */
export function readQuote(key: string, id: string): SignedQuote | undefined {
  const terms = readTerms(key, id);
  if (!Array.isArray(terms) || terms.length !== 4) return undefined;
  const [betId, amount, refundAmount, expiresAt] = terms;
  if (typeof betId !== 'string' || typeof amount !== 'string' || typeof refundAmount !== 'string')
    return undefined;
  if (typeof expiresAt !== 'number') return undefined;
  return { betId, amount, refundAmount, expiresAt };
}
