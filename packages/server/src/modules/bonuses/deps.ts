import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { WhiteLabel } from '../tenants/index.js';

/** What the bonus use cases need. */
export interface BonusesDeps {
  database: Database;
  clock: Clock;
  whiteLabels: { get(id: string): Promise<WhiteLabel> };
}
