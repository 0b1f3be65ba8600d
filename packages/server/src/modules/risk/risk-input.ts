import { formatMoney, parseDecimal, validationError } from '@bookie/core';

/** Who changes a setting, for the audit log (`admin-api:…`, `cli:…`). */
export type Actor = string;

export const PHASES = ['live', 'prematch'] as const;

export function phaseOf(v: unknown, field: string): 'live' | 'prematch' {
  if (v === 'live' || v === 'prematch') return v;
  throw validationError(field, 'must be live or prematch');
}

export function amount(v: unknown, field: string): string {
  return formatMoney(parseDecimal(v, { field, maxDecimals: 6 }));
}
