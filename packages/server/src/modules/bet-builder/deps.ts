import type { SportEvent } from '@bookie/contracts';
import type { BuilderSettings } from '@bookie/core';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { BuilderModelCache } from './model-cache.js';

/** What the builder calculator needs. */
export interface BetBuilderDeps {
  clock: Clock;
  /** The current snapshot of a sport event (this process's replica of the feed). */
  currentEvent(sportEventId: string): SportEvent | undefined;
  /** The events' fitted models, one per event price version. */
  models: BuilderModelCache;
  /** The white label's builder margin and most legs (its own or the defaults), through a short cache. */
  settings(whiteLabelId: string): Promise<BuilderSettings>;
  /** The key quotes are signed with (the cash-out quote key, read once per process). */
  quoteKey(): Promise<string>;
  /** How long a builder quote holds, ms (`BUILDER_QUOTE_TTL_S`). */
  quoteTtlMs: number;
}

/** What the bet builder's settings read: the database (a white label's own builder settings). */
export interface BuilderSettingsDeps {
  database: Database;
}
