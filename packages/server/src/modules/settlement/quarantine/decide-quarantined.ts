import { DomainError, validationError } from '@bookie/core';
import { inTransaction } from '../../../db/transaction.js';
import type { SettlementDeps } from '../deps.js';
import { insertAudit, quarantinedForUpdate, setQuarantineStatus } from '../settlement.repo.js';
import { type QuarantineView, quarantineView } from './list-quarantine.js';

/** An operator's decision on a quarantined entry. */
export interface QuarantineDecisionInput {
  /** The entry's log version (decimal string). */
  v: string;
  /** `retry`: the leading consumer processes it again; `skip`: it is left unprocessed for good. */
  decision: 'retry' | 'skip';
  /** Why (audit log). */
  reason: string;
  /** Who (audit log), e.g. `admin-api:alice` or `cli:bob`. */
  actor: string;
  consumer?: string;
}

/**
 * Retries or skips a quarantined log entry, with an audit_log row in the same transaction
 * (docs/adr/0016-safety-and-conformance.md). A retry is taken up by the leading settlement consumer (at once in
 * this process, else at its next sweep); a resolved entry cannot be decided again.
 *
 * @throws DomainError validation_error (`v`, `reason`), not_found (no such quarantined entry), conflict (resolved).
 */
export async function decideQuarantined(
  deps: Pick<SettlementDeps, 'database' | 'clock'>,
  input: QuarantineDecisionInput,
): Promise<QuarantineView> {
  if (!/^[1-9]\d{0,18}$/.test(input.v))
    throw validationError('v', 'must be a log version (a positive integer)');
  const reason = input.reason.trim();
  if (reason === '') throw validationError('reason', 'must not be empty');
  const consumer = input.consumer ?? 'settlement';
  const v = BigInt(input.v);
  const at = new Date(deps.clock.now());
  return inTransaction(deps.database.db, async (tx) => {
    const row = await quarantinedForUpdate(tx, consumer, v);
    if (!row) throw new DomainError('not_found', `no quarantined entry ${input.v}`);
    if (row.status === 'resolved') {
      throw new DomainError('conflict', `entry ${input.v} was retried and processed already`);
    }
    const status = input.decision === 'retry' ? 'retry' : 'skipped';
    await setQuarantineStatus(tx, consumer, v, status, at);
    await insertAudit(tx, {
      at,
      actor: input.actor,
      action: `settlement.quarantine.${input.decision}`,
      subject: `feed_log:${input.v}`,
      details: JSON.stringify({ reason, consumer, previous: row.status, error: row.error }),
    });
    return quarantineView({ ...row, status, updated_at: at });
  });
}
