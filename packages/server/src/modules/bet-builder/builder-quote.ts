import type { BuilderLeg } from '@bookie/contracts';
import { readTerms, signTerms } from '../../platform/signed-terms.js';

/** What a builder quote promises: these odds for these legs of this event, to this white label, until `expiresAt`. */
export interface BuilderQuoteTerms {
  whiteLabelId: string;
  sportEventId: string;
  /** The legs in the order priced; `specifiers` only when the request gave them. */
  legs: BuilderLeg[];
  /** The offered combined odds, 6 decimals as on the wire. */
  odds: string;
  /** Unix ms. */
  expiresAt: number;
}

/** Marks a builder quote's terms, so no other signed terms (a cash-out quote) read as one. */
const KIND = 'bet_builder_quote';

const legKey = (l: BuilderLeg) => [l.market_id, l.odd_id, l.specifiers ?? null] as const;

/**
 * Signs a builder quote with the platform's quote key (the key and the signature of cash-out quotes): any process can
 * check it without storing it.
 */
export function signBuilderQuote(key: string, t: BuilderQuoteTerms): string {
  return signTerms(key, [KIND, t.whiteLabelId, t.sportEventId, t.legs.map(legKey), t.odds, t.expiresAt]);
}

/** The terms of a builder quote signed with `key`, or undefined when it is not one (or was altered). */
export function readBuilderQuote(key: string, quote: string): BuilderQuoteTerms | undefined {
  const terms = readTerms(key, quote);
  if (!Array.isArray(terms) || terms.length !== 6 || terms[0] !== KIND) return undefined;
  const [, whiteLabelId, sportEventId, legs, odds, expiresAt] = terms as unknown[];
  if (typeof whiteLabelId !== 'string' || typeof sportEventId !== 'string' || typeof odds !== 'string')
    return undefined;
  if (typeof expiresAt !== 'number' || !Array.isArray(legs)) return undefined;
  const out: BuilderLeg[] = [];
  for (const l of legs) {
    if (!Array.isArray(l) || typeof l[0] !== 'string' || typeof l[1] !== 'string') return undefined;
    out.push({
      market_id: l[0],
      odd_id: l[1],
      ...(l[2] && typeof l[2] === 'object' ? { specifiers: l[2] as Record<string, string> } : {}),
    });
  }
  return { whiteLabelId, sportEventId, legs: out, odds, expiresAt };
}

/** Why {@link verifyBuilderQuote} refuses a quote. */
export type BuilderQuoteProblem =
  /** Not signed with the key, or altered. */
  | 'invalid'
  /** Past its expiry. */
  | 'expired'
  /** Signed, but for another white label, event, legs or odds than the bet's. */
  | 'mismatch';

/** What a placed builder says it is, to check against its quote. */
export interface BuilderQuoteClaim {
  whiteLabelId: string;
  sportEventId: string;
  legs: readonly BuilderLeg[];
  /** The combined odds the player saw, as a decimal string (compared by value: `3.29` and `3.290000` agree). */
  odds: string;
}

const sameLegs = (a: readonly BuilderLeg[], b: readonly BuilderLeg[]) =>
  a.length === b.length && a.every((l, i) => l.market_id === b[i]!.market_id && l.odd_id === b[i]!.odd_id);

const sameOdds = (a: string, b: string) => {
  const norm = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  return norm(a) === norm(b);
};

/**
 * Checks a builder quote without a write: signed with `key` (the platform's quote key), not expired at `now` (Unix
 * ms), and for this white label, event, legs (same markets and odds, same order) and odds. Placement accepts a valid
 * quote's odds without repricing; any problem means: price the builder again.
 *
 * @returns the quote's terms, or the problem.
 */
export function verifyBuilderQuote(
  key: string,
  quote: string,
  claim: BuilderQuoteClaim,
  now: number,
): { ok: true; terms: BuilderQuoteTerms } | { ok: false; problem: BuilderQuoteProblem } {
  const terms = readBuilderQuote(key, quote);
  if (!terms) return { ok: false, problem: 'invalid' };
  if (now >= terms.expiresAt) return { ok: false, problem: 'expired' };
  if (
    terms.whiteLabelId !== claim.whiteLabelId ||
    terms.sportEventId !== claim.sportEventId ||
    !sameLegs(terms.legs, claim.legs) ||
    !sameOdds(terms.odds, claim.odds)
  )
    return { ok: false, problem: 'mismatch' };
  return { ok: true, terms };
}
