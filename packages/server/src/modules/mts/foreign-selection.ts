/**
 * Foreign selections of a reported bet (MTS or advisory): selections on events Bookie does not cover, which the
 * partner reports with their odds and later results.
 *
 * @packageDocumentation
 */

import { validationError } from '@bookie/core';

/** The outcome key of a foreign selection: kept apart from every platform outcome. */
export function foreignOutcome(id: string) {
  return { sport_event_id: `foreign:${id}`, market_id: 'foreign', odd_id: id, phase: 'prematch' as const };
}

/**
 * Refuses a foreign selection id given twice in one bet.
 *
 * @throws DomainError validation_error naming `foreign_selections[i].id`.
 */
export function assertDistinctForeignSelections(foreign: ReadonlyArray<{ id: string }>): void {
  const ids = new Set<string>();
  foreign.forEach((f, i) => {
    if (ids.has(f.id)) throw validationError(`foreign_selections[${i}].id`, `${f.id} is repeated`);
    ids.add(f.id);
  });
}
