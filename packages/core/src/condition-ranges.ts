/** Inclusive range checks shared by the condition matching and the bonus checks (an absent bound is open). */
import type { CountRange, ValueRange } from './conditions.js';
import { compare, type Rational } from './decimal.js';

export function inCount(r: CountRange, n: number): boolean {
  return (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max);
}

export function inValue(r: ValueRange, v: Rational): boolean {
  return (!r.min || compare(v, r.min) >= 0) && (!r.max || compare(v, r.max) <= 0);
}
