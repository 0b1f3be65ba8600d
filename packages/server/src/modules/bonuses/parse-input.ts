import { validationError } from '@bookie/core';
import type { WhiteLabel } from '../tenants/index.js';

/**
 * An expiry as sent (RFC 3339, or null/absent for none), which must lie in the future.
 *
 * @throws DomainError validation_error naming `field`.
 */
export function parseExpiry(value: string | null | undefined, now: number, field: string): Date | null {
  if (value === undefined || value === null) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw validationError(field, 'must be an RFC 3339 date-time');
  if (at.getTime() <= now) throw validationError(field, 'must be in the future');
  return at;
}

/** @throws DomainError validation_error naming `field` when the white label does not offer the currency. */
export function assertOfferedCurrency(wl: WhiteLabel, currency: string, field: string): void {
  if (!wl.currencies.includes(currency)) {
    throw validationError(
      field,
      `the white label does not offer ${currency} (it offers ${wl.currencies.join(', ')})`,
    );
  }
}
