/**
 * Every string the frame shows, per locale. English is complete; a missing key of another locale falls back to
 * English (a test checks that German has every key). `{name}` marks a value put in.
 */
import { ar } from './messages/ar.js';
import { de } from './messages/de.js';
import { en, type MessageKey } from './messages/en.js';

export { ar, de, en, type MessageKey };

const CATALOGUES: Record<string, Partial<Record<MessageKey, string>>> = { en, de, ar };

/** The writing direction of a locale: right to left for Arabic, Hebrew, Persian and Urdu. */
export function dirOf(locale: string): 'ltr' | 'rtl' {
  return ['ar', 'he', 'fa', 'ur'].includes(locale.slice(0, 2).toLowerCase()) ? 'rtl' : 'ltr';
}

/** The locales the frame speaks. */
export const LOCALES = Object.keys(CATALOGUES);

/** The message `key` in `locale` (English when missing), with `{name}` replaced by `vars.name`. */
export function t(locale: string, key: MessageKey, vars: Record<string, unknown> = {}): string {
  const lang = locale.slice(0, 2).toLowerCase();
  const text = CATALOGUES[lang]?.[key] ?? en[key];
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m));
}

/** The plain-words reason of a restriction (spec 01 "Restriction"), with its context put in. */
export function reasonText(locale: string, r: { type: string; context: Record<string, unknown> }): string {
  const key = `reason.${r.type}` as MessageKey;
  return key in en ? t(locale, key, r.context) : t(locale, 'reason.other', { type: r.type });
}

/** Why a cash-out is not offered, or an order was declined (spec 03 "Cash out", D43), in plain words. */
export function cashOutReasonText(locale: string, reason: string | undefined): string {
  const key = `cashout.reason.${reason}` as MessageKey;
  return reason && key in en ? t(locale, key) : t(locale, 'cashout.reason.other', { reason: reason ?? '' });
}

/** The order in which a declined bet's restrictions are told: the first one found is its root cause. */
const ROOT_CAUSES = [
  'not_enough_balance',
  'max_bet',
  'min_bet',
  'player_limit',
  'selection_value',
  'sport_event_status',
  'sport_event_existence',
  'sport_event_bet_stop',
  'market_status',
  'market_existence',
  'market_defective',
  'odd_status',
  'odd_existence',
  'bet_type',
  'bet_interval',
];

/** The one restriction a declined bet is explained by (the first of a fixed order; else its first). */
export function rootCause(
  restrictions: readonly { type: string; context: Record<string, unknown> }[],
): { type: string; context: Record<string, unknown> } | undefined {
  for (const type of ROOT_CAUSES) {
    const r = restrictions.find((x) => x.type === type);
    if (r) return r;
  }
  return restrictions[0];
}

/** A declined bet's root cause in plain words (without its figure; the receipt shows that). */
export function rootCauseText(
  locale: string,
  bet: { restrictions: readonly { type: string; context: Record<string, unknown> }[] },
): string {
  const r = rootCause(bet.restrictions);
  return r ? reasonText(locale, r) : t(locale, 'result.declined');
}
