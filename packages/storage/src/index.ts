/**
 * `@bookie/storage`: Kysely over `pg` (Postgres URL) or PGlite in-process, with `int8` read as bigint and
 * `numeric` as exact strings on both; migrations loaded from a directory; throwaway test databases.
 * Used by the server and the reference wallet.
 */
export { type DataDirLock, DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock.js';
export {
  type Database,
  type DatabaseKind,
  type DatabaseTarget,
  openDatabase,
  PLANNED_EACH_RUN,
  type StatementCall,
} from './database.js';
export { GroupCommit, type GroupCommitOptions } from './group-commit.js';
export { migrateDirectory } from './migrate.js';
export { sendQuery, sendWrite } from './pipelined-driver.js';
export { execStatements } from './sql.js';
export { createTestDatabase, type TestDatabase } from './test-database.js';
export { type Executor, inTransaction } from './transaction.js';
