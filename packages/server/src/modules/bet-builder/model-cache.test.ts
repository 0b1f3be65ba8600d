import { EventEmitter } from 'node:events';
import { FIXTURE_EVENT } from '@bookie/core/bet-builder/testing';
import { describe, expect, it } from 'vitest';
import { BuilderModelCache, type EventChanges, EventVersions } from './model-cache.js';

describe('the builder models per event price version', () => {
  it('fits once per version: an entry for the event or a resync fits again, another event’s entry does not', () => {
    const feed = new EventEmitter();
    const versions = new EventVersions(feed as unknown as EventChanges);
    const cache = new BuilderModelCache((id) => versions.of(id));
    const first = cache.model(FIXTURE_EVENT);
    expect(first.ok).toBe(true);
    expect(cache.model(FIXTURE_EVENT)).toBe(first);
    feed.emit('match_update', { v: '7', sport_event_id: 'another-event' });
    expect(cache.model(FIXTURE_EVENT)).toBe(first);
    expect(cache.fits).toBe(1);
    feed.emit('match_update', { v: '8', sport_event_id: FIXTURE_EVENT.id });
    expect(cache.model(FIXTURE_EVENT)).not.toBe(first);
    expect(cache.fits).toBe(2);
    feed.emit('resync');
    cache.model(FIXTURE_EVENT);
    expect(cache.fits).toBe(3);
  });

  it('keeps refusals too, and at most its capacity of events', () => {
    const cache = new BuilderModelCache(() => '0:0', 1);
    const tennis = { ...FIXTURE_EVENT, id: 'tennis', sport_id: 'tennis' };
    const refused = cache.model(tennis);
    expect(refused).toMatchObject({ ok: false, refusal: { code: 'sport_not_modelled' } });
    expect(cache.model(tennis)).toBe(refused);
    cache.model(FIXTURE_EVENT);
    cache.model(tennis);
    expect(cache.fits).toBe(3);
  });
});
