/**
 * Money in the wallet: exact integers of micro-units (1 unit = 1 000 000 micro-units), stored as `int8` and handled
 * as `bigint`. Decimal strings are parsed with core's exact decimal module (DECISIONS D1), never through `number`;
 * amounts on the wire have at most 6 decimals, so the conversion is exact.
 *
 * @packageDocumentation
 */
import { formatMoney, parseMoney, rational } from '@bookie/core';

/** Micro-units per unit of currency. */
export const MICROS = 1_000_000n;

/**
 * Parses a non-negative money amount (decimal string, at most 6 decimals) into micro-units.
 *
 * @throws DomainError `validation_error` naming `field`.
 */
export function toMicros(amount: unknown, field = 'amount', options: { allowZero?: boolean } = {}): bigint {
  const r = parseMoney(amount, field, { allowZero: options.allowZero ?? true });
  return (r.num * MICROS) / r.den; // exact: at most 6 decimals
}

/** Writes micro-units as a decimal string with 6 decimals (DECISIONS D1), e.g. `12500000n` → `"12.500000"`. */
export function formatMicros(micros: bigint): string {
  return formatMoney(rational(micros, MICROS));
}
