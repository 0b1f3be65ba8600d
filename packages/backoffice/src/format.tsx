import { useState } from 'preact/hooks';

/**
 * How the backoffice writes figures. Money arrives as exact decimal strings (6 decimals); it is written with the
 * currency's minor units and the locale's thousands separators by `Intl.NumberFormat` given the string itself — the
 * exact decimal, never a float.
 */
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string | undefined, digits?: number): Intl.NumberFormat {
  const key = `${currency ?? ''}|${digits ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    f = currency
      ? new Intl.NumberFormat('en-GB', { style: 'currency', currency, currencyDisplay: 'code' })
      : new Intl.NumberFormat('en-GB', {
          minimumFractionDigits: digits ?? 2,
          maximumFractionDigits: digits ?? 2,
        });
    formatters.set(key, f);
  }
  return f;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** `1234.500000` EUR → `EUR 1,234.50`: the currency's minor units, thousands separators; from the string. */
export function money(value: string | null | undefined, currency?: string): string {
  if (value === null || value === undefined || !DECIMAL.test(value.trim())) return value ?? '—';
  // Intl.NumberFormat formats a decimal string exactly (no conversion to a double)
  return formatter(currency)
    .format(value.trim() as unknown as number)
    .replace(/\u00a0/g, ' ');
}

/** A fraction (`0.054321`) as a percentage with 2 decimals, from the string (the decimal point moved by two). */
export function percent(fraction: string | null | undefined): string {
  if (fraction === null || fraction === undefined || !DECIMAL.test(fraction)) return '—';
  const neg = fraction.startsWith('-');
  const [whole = '0', frac = ''] = (neg ? fraction.slice(1) : fraction).split('.');
  const digits = `${whole}${frac.padEnd(2, '0').slice(0, 2)}.${frac.slice(2)}`;
  const shifted = digits.endsWith('.') ? digits.slice(0, -1) : digits;
  return `${formatter(undefined, 2).format(`${neg ? '-' : ''}${shifted}` as unknown as number)} %`;
}

/** A count with thousands separators. */
export function count(n: number | string): string {
  return formatter(undefined, 0).format(n as number);
}

/**
 * exposure ÷ limit as a share in [0, ∞), for colours and bars only (a display reading, never money): computed on
 * integers of millionths, so the share is exact to 1/1000.
 */
export function share(exposure: string, limit: string | null | undefined): number | undefined {
  if (!limit) return undefined;
  const micros = (v: string) => {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v.trim());
    if (!m) return 0n;
    const n = BigInt((m[2] as string) + (m[3] ?? '').padEnd(6, '0').slice(0, 6));
    return m[1] ? -n : n;
  };
  const l = micros(limit);
  if (l <= 0n) return undefined;
  const e = micros(exposure);
  return Number((e * 1000n) / l) / 1000;
}

/** A feed odd value (12 decimals) without its trailing zeros, as text: never through a float. */
export function odds(value: string): string {
  return value.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** An ISO time as `2026-05-01 14:00:00 UTC`. */
export function time(iso: string | null | undefined): string {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : '—';
}

/**
 * A name in place of an id: the id is in the title (on hover) and copied by a click, so it stays at hand without
 * filling the table.
 */
export function Named({ id, name }: { id: string; name?: string | undefined }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="named"
      title={`${id} — click to copy`}
      data-id={id}
      onClick={() => {
        navigator.clipboard?.writeText(id).then(
          () => setCopied(true),
          () => {},
        );
        setTimeout(() => setCopied(false), 1200);
      }}
    >
      {name ?? `${id.slice(0, 8)}…`}
      {copied ? ' ✓' : ''}
    </button>
  );
}
