import { validationError } from '@bookie/core';

/**
 * Parses the `Foreign-Params` header (the callback contract, "Which fields each callback carries", the callback requests rule): a JSON object of
 * free-form keys passed through from the player's session token. Absent or empty → `{}`.
 *
 * @param header - the raw header value (the first one when repeated).
 * @throws DomainError `validation_error` (field `headers.foreign-params`) when it is not a JSON object.
 */
export function parseForeignParams(header: string | undefined): Record<string, unknown> {
  if (header === undefined || header.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(header);
  } catch {
    throw validationError('headers.foreign-params', 'must be a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw validationError('headers.foreign-params', 'must be a JSON object');
  }
  return value as Record<string, unknown>;
}
