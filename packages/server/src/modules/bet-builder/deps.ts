import type { Database } from '../../db/database.js';

/** What the bet builder's settings read: the database (a white label's own builder settings). */
export interface BuilderSettingsDeps {
  database: Database;
}
