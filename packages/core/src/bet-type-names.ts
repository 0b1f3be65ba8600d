/**
 * The names of the bet types — single, express, system — on their own, so that the restrictions (which name a bet
 * type) and the bet type rules (which raise restrictions) both build on them without importing each other.
 *
 * @packageDocumentation
 */

/** The three bet types, by name (the callback contract, "Bet types"). */
export const BET_TYPES = ['single', 'express', 'system'] as const;
/** A bet type name: `single`, `express` (accumulator, combo) or `system` (the callback contract, "Bet types"). */
export type BetType = (typeof BET_TYPES)[number];

/** True when `s` is a bet type name. */
export function isBetType(s: unknown): s is BetType {
  return typeof s === 'string' && (BET_TYPES as readonly string[]).includes(s);
}
