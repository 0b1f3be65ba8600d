import { type BuilderEventInput, type BuilderModel, type BuilderResult, builderModel } from '@bookie/core';

/** What the model cache reads of the feed's replica: the entries that change an event, and full resyncs. */
export interface EventChanges {
  on(event: 'match_new', listener: (entry: { v: string; sport_event: { id: string } }) => void): unknown;
  on(event: 'match_update', listener: (entry: { v: string; sport_event_id: string }) => void): unknown;
  on(event: 'resync', listener: () => void): unknown;
}

/**
 * Each sport event's price version: the feed version of the last log entry that changed it, as this process's replica
 * applied it. An event unchanged since the replica loaded has version `0` of the current load; a full resync starts
 * a new load, so no version read before it matches one read after.
 */
export class EventVersions {
  private readonly versions = new Map<string, string>();
  private load = 0;

  constructor(changes: EventChanges) {
    changes.on('match_new', (e) => this.versions.set(e.sport_event.id, e.v));
    changes.on('match_update', (e) => this.versions.set(e.sport_event_id, e.v));
    changes.on('resync', () => {
      this.versions.clear();
      this.load += 1;
    });
  }

  /** The event's price version (an opaque key: equal keys, same prices). */
  of(eventId: string): string {
    return `${this.load}:${this.versions.get(eventId) ?? '0'}`;
  }
}

/**
 * The events' fitted builder models (core's `builderModel`, refusals included), one per event at its price version:
 * the calculator fits an event once per price change, not once per call. Holds at most `capacity` events, the least
 * recently fitted leaving first.
 */
export class BuilderModelCache {
  private readonly models = new Map<string, { version: string; model: BuilderResult<BuilderModel> }>();
  /** How many fits the cache made (for tests and metrics). */
  fits = 0;

  constructor(
    private readonly versionOf: (eventId: string) => string,
    private readonly capacity = 2000,
  ) {}

  /** The event's model at its current price version, fitted now when the cache has none for that version. */
  model(event: BuilderEventInput): BuilderResult<BuilderModel> {
    const version = this.versionOf(event.id);
    const hit = this.models.get(event.id);
    if (hit && hit.version === version) return hit.model;
    const model = builderModel(event);
    this.fits += 1;
    this.models.delete(event.id);
    this.models.set(event.id, { version, model });
    if (this.models.size > this.capacity) {
      const oldest = this.models.keys().next().value;
      if (oldest !== undefined) this.models.delete(oldest);
    }
    return model;
  }
}
