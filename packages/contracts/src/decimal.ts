/**
 * The decimal strings rule as JSON Schema patterns, in one place (docs/adr/0030-hostile-input.md): ASCII digits without
 * leading zeros (`"0.5"` yes, `"007.5"` and `"01"` no), optionally a point and 1..`maxDecimals` digits; no sign, no
 * exponent, no spaces, at most 18 digits before the point. It is the JSON Schema form of `parseDecimal` of
 * `@bookie/core` (same integer digits, same decimals), so a schema and the parser behind it never disagree; the
 * parser adds what a pattern cannot say (odds above 1, a positive stake), naming the field.
 *
 * @packageDocumentation
 */

/** Most digits before the point (`parseDecimal`'s default `maxIntegerDigits`). */
export const DECIMAL_INTEGER_DIGITS = 18;

/** The pattern of a non-negative decimal string with at most `maxDecimals` decimals (see the module comment). */
export function decimalPattern(maxDecimals: number): string {
  return `^(0|[1-9][0-9]{0,${DECIMAL_INTEGER_DIGITS - 1}})(\\.[0-9]{1,${maxDecimals}})?$`;
}

/** A decimal string with up to 12 decimals: odds, multipliers, percentages. */
export const DECIMAL_PATTERN = decimalPattern(12);

/** A money amount (stake, amount, limit): a decimal string with up to 6 decimals. */
export const MONEY_PATTERN = decimalPattern(6);
