import type { Executor as StorageExecutor } from '@bookie/storage';
import type { DB } from './schema.js';

export { inTransaction, sendQuery, sendWrite } from '@bookie/storage';

/** A handle a server repository can run on: the database or an open transaction. */
export type Executor = StorageExecutor<DB>;
