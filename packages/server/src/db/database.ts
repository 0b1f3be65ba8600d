import type { Database as StorageDatabase } from '@bookie/storage';
import type { DB } from './schema.js';

/** The server's database handle, typed with its schema. */
export type Database = StorageDatabase<DB>;
