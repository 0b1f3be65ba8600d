import { parseDecimal } from '@bookie/core/decimal';
import { displayOdds, isOddsFormat, type OddsFormat } from '@bookie/core/odds-format';

/**
 * The odds format a host names, in any case and spacing: Bookie's own names (`decimal`, `hongkong`, …) and the
 * names partners moving from another vendor use (`'Decimal'`, `'Fractional'`, `'American'`, `'HongKong'` or
 * `'Hong Kong'`, `'Malay'`, `'Indonesian'`).
 *
 * @throws RangeError naming the value and the accepted names, for anything else.
 */
export function oddsFormatOf(name: unknown): OddsFormat {
  const key = typeof name === 'string' ? name.toLowerCase().replace(/[\s_-]+/g, '') : '';
  if (isOddsFormat(key)) return key;
  throw new RangeError(
    `unknown odds format ${JSON.stringify(name)}: use Decimal, Fractional, American, HongKong, Malay or Indonesian`,
  );
}

/**
 * The price a player sees for stored decimal odds `value` (the odds-format rule: rounded to 2 decimals, display only):
 * in `fmt`; in decimal when `fmt` cannot show it; `undefined` when the value is not valid odds at all. A button that
 * would put the price in the bet slip is disabled when this is `undefined`: nobody bets on a price they cannot see.
 */
export function priceText(value: string, fmt: OddsFormat): string | undefined {
  let odds: ReturnType<typeof parseDecimal>;
  try {
    odds = parseDecimal(value, { field: 'odds', maxDecimals: 12 });
  } catch {
    return undefined;
  }
  for (const f of [fmt, 'decimal'] as const) {
    try {
      return displayOdds(odds, f);
    } catch {
      // the next format, then none
    }
  }
  return undefined;
}

/** What an odd's button shows and whether it can be clicked: open for betting and with a price it can show. */
export function oddButtonState(
  value: string,
  fmt: OddsFormat,
  open: boolean,
): { text: string; disabled: boolean } {
  const text = priceText(value, fmt);
  return text === undefined ? { text: '—', disabled: true } : { text, disabled: !open };
}

/** A price shown where nothing can be clicked (history, slip lines): the decimal when the format cannot show it. */
export function shown(v: string, f: OddsFormat): string {
  return priceText(v, f) ?? '—';
}
