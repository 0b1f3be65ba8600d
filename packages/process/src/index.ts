/**
 * `@bookie/process`: how Bookie's long-running commands (`bookie start`, `bookie-wallet start`) stop — gracefully on
 * SIGTERM or SIGINT, and when the parent that started them for a test is gone — and the helpers that start them as
 * child processes in end-to-end tests and benches.
 */

export {
  type ListeningProcess,
  runToCompletion,
  type StartListeningOptions,
  startListening,
} from './child-process.js';
export { entryArgs, isBuildFresh, RUN_SOURCES_ENV, SOURCE_CONDITION } from './entry.js';
export {
  ConfigError,
  choiceSetting,
  intSetting,
  postgresUrlSetting,
  readSetting,
  shareSetting,
} from './settings.js';
export { EXIT_WITH_PARENT_ENV, type StopLogger, stopGracefully } from './stop-gracefully.js';
