/**
 * Money in the wallet: exact integers of micro-units (1 unit = 1 000 000 micro-units), stored as `int8` and handled
 * as `bigint`. Decimal strings are parsed with core's exact decimal module, never through `number`. Bookie writes 6
 * decimals; other senders of the contract may write 0–12 (`"10"`, `"10.500000000000"`): any of them is accepted when
 * its value is a whole number of micro-units, and refused (never rounded) otherwise, so balances stay exact.
 *
 * @packageDocumentation
 */
import { formatMoney, parseDecimal, rational, validationError } from '@bookie/core';

/** Micro-units per unit of currency. */
export const MICROS = 1_000_000n;

/**
 * Parses a non-negative money amount (decimal string, 0–12 decimals) into micro-units, exactly.
 *
 * @throws DomainError `validation_error` naming `field`, also when the amount is finer than a micro-unit
 *   (e.g. `"1.0000001"`).
 */
export function toMicros(amount: unknown, field = 'amount', options: { allowZero?: boolean } = {}): bigint {
  const r = parseDecimal(amount, {
    field,
    maxDecimals: 12,
    allowNegative: false,
    allowZero: options.allowZero ?? true,
  });
  if ((r.num * MICROS) % r.den !== 0n) {
    throw validationError(field, 'must be a whole number of micro-units (at most 6 significant decimals)');
  }
  return (r.num * MICROS) / r.den;
}

/** Writes micro-units as a decimal string with 6 decimals (DECISIONS D1), e.g. `12500000n` → `"12.500000"`. */
export function formatMicros(micros: bigint): string {
  return formatMoney(rational(micros, MICROS));
}
