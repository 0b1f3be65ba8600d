import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import { CallbackDispatcher, type DispatcherOptions } from './dispatcher.js';
import type { CallbackSender, CallbackTargets } from './send-callback.js';

/** The callbacks module's running parts, shared by placement (sync /bet/place) and the dispatcher. */
export interface CallbacksService {
  targets: CallbackTargets;
  sender: CallbackSender;
  dispatcher: CallbackDispatcher;
}

/** Builds the callbacks service; the dispatcher starts with {@link CallbackDispatcher.start}. */
export function createCallbacksService(
  database: Database,
  targets: CallbackTargets,
  sender: CallbackSender,
  logger: Logger,
  opts: DispatcherOptions,
): CallbacksService {
  return { targets, sender, dispatcher: new CallbackDispatcher(database, targets, sender, logger, opts) };
}
