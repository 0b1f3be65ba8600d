import type { WhiteLabelView } from '@bookie/contracts';
import type { TenancyDeps } from './deps.js';
import { listWhiteLabels as listRows } from './tenants.repo.js';
import { toWhiteLabel, whiteLabelView } from './white-label.js';

/** Every white label, oldest first, without secrets or credentials. */
export async function listWhiteLabels(deps: TenancyDeps): Promise<WhiteLabelView[]> {
  const rows = await listRows(deps.database.db);
  const now = deps.clock.now();
  return rows.map((r) => whiteLabelView(toWhiteLabel(r), { now }));
}
