import type { AppDeps } from '../../app/wiring.js';
import { cachedWhiteLabels } from '../tenants/cached-white-labels.js';
import type { FrameDeps } from './deps.js';

/** The frame module's dependencies out of the application's. */
export function frameDeps(app: AppDeps): FrameDeps {
  return {
    database: app.database,
    clock: app.clock,
    logger: app.logger,
    settings: app.config.frame,
    whiteLabels: cachedWhiteLabels({ database: app.database, clock: app.clock }),
    targets: app.callbacks.targets,
    sender: app.callbacks.sender,
    sessionEvents: app.sessionEvents,
  };
}
