import type { SettlementDeps } from '../deps.js';
import { listQuarantine, type QuarantineRow } from '../settlement.repo.js';

/** A quarantined log entry as the admin API and the CLI show it. */
export interface QuarantineView {
  /** The entry's log version. */
  v: string;
  /** `quarantined` (waiting for an operator), `retry` (asked to retry), `resolved` (a retry passed), `skipped`. */
  status: QuarantineRow['status'];
  error: string;
  attempts: number;
  /** The entry's type (`bet_rollback`, `odds_change`, …) when its line parses. */
  type: string | undefined;
  quarantined_at: string;
  updated_at: string;
}

/** The view of a quarantine row. */
export function quarantineView(r: QuarantineRow): QuarantineView {
  let type: string | undefined;
  try {
    const t = (JSON.parse(r.line) as { type?: unknown }).type;
    type = typeof t === 'string' ? t : undefined;
  } catch {
    type = undefined;
  }
  return {
    v: r.v.toString(),
    status: r.status,
    error: r.error,
    attempts: r.attempts,
    type,
    quarantined_at: new Date(r.quarantined_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** The settlement consumer's quarantine, oldest entry first (at most 1000); `status` filters. */
export async function listQuarantined(
  deps: Pick<SettlementDeps, 'database'>,
  input: { consumer?: string; status?: QuarantineRow['status'] } = {},
): Promise<QuarantineView[]> {
  const rows = await listQuarantine(deps.database.db, input.consumer ?? 'settlement', input.status);
  return rows.map(quarantineView);
}
