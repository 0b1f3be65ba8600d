import { describe, expect, it } from 'vitest';
import { readQuote, signQuote } from './quotes.js';

describe('cash-out quote ids', () => {
  const q = { betId: 'b1', amount: '4.000000', refundAmount: '2.810000', expiresAt: 1_700_000_000_000 };

  it('carry their terms, readable only with the key that signed them', () => {
    const id = signQuote('k1', q);
    expect(readQuote('k1', id)).toEqual(q);
    expect(readQuote('k2', id)).toBeUndefined();
  });

  it('refuse changed terms and malformed ids', () => {
    const id = signQuote('k1', q);
    const [, sig] = id.split('.');
    const forged = `${Buffer.from(JSON.stringify(['b1', '4.000000', '9.000000', q.expiresAt])).toString('base64url')}.${sig}`;
    expect(readQuote('k1', forged)).toBeUndefined();
    for (const bad of ['', 'x', 'a.b.c', `${id}x`]) expect(readQuote('k1', bad)).toBeUndefined();
  });
});
