/** What the risk settings screen's forms share: the settings' shapes, a labelled field, the decimal check. */
import type { ComponentChildren } from 'preact';

/** A liability limit of a white label, market type and phase (EUR). */
export interface Limit {
  white_label_id: string;
  market_type_id: string;
  phase: 'live' | 'prematch';
  liability_eur: string;
}
/** A risk group and its stake factor. */
export interface Group {
  name: string;
  stake_factor: string;
  max_payout_eur: string | null;
}
/** A bet delay at one level (sport event, market type, risk group). */
export interface Delay {
  level: 'sport_event' | 'market_type' | 'risk_group';
  key: string;
  phase: 'live' | 'prematch';
  seconds: string;
}

/** A field's problem before the server is asked, or '' (the server checks again and names the field). */
export function checkDecimal(
  value: string,
  field: string,
  opts: { max?: number; decimals?: number } = {},
): string {
  const v = value.trim();
  const re = new RegExp(`^\\d+(\\.\\d{1,${opts.decimals ?? 6}})?$`);
  if (!re.test(v)) return `${field}: a decimal number ≥ 0 with at most ${opts.decimals ?? 6} decimals`;
  if (opts.max !== undefined && Number(v.split('.')[0]) >= opts.max) return `${field}: below ${opts.max}`;
  return '';
}

/** A form field: its label around the control. */
export function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child passed in
    <label>
      {label}
      {children}
    </label>
  );
}

/** An input handler that sets the value typed. */
export const value = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement).value);
