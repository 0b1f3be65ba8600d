import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { cachedWhiteLabels } from './cached-white-labels.js';
import { createWhiteLabel } from './create-white-label.js';
import { learnUnsupportedNow } from './learn-optional-callback.js';
import { rotateSigningSecret } from './rotate-signing-secret.js';
import { updateWhiteLabel } from './update-white-label.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe(`the white label cache (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  // a clock that never moves: only a change made in this process can make the cache read again
  const deps = () => ({ database: db, clock: { now: () => 1_000_000 } });

  it('serves a change made in this process at once, well inside its time to live', async () => {
    const { id } = await createWhiteLabel(deps(), {
      name: 'Cached',
      currencies: ['EUR'],
      allowed_origins: ['https://old.example'],
    });
    const cache = cachedWhiteLabels(deps(), 60_000);
    expect((await cache.get(id)).allowedOrigins).toEqual(['https://old.example']);

    await updateWhiteLabel(deps(), { id, changes: { allowed_origins: ['https://new.example'] } });
    expect((await cache.get(id)).allowedOrigins).toEqual(['https://new.example']);

    const before = (await cache.get(id)).signing.secret;
    const { signing_secret } = await rotateSigningSecret(deps(), { whiteLabelId: id, graceSeconds: 0 });
    expect(signing_secret).not.toBe(before);
    expect((await cache.get(id)).signing.secret).toBe(signing_secret);

    const learnt = await learnUnsupportedNow(db.db, {
      whiteLabelId: id,
      callback: 'cash_out',
      status: 404,
      at: new Date(1_000_000),
    });
    expect(learnt).toBe(true);
    expect((await cache.get(id)).optionalCallbacks.cash_out.learnt).toBe('unsupported');
  });

  it('keeps serving what it read while nothing changed here, and a change to one white label leaves the other cached', async () => {
    const a = await createWhiteLabel(deps(), { name: 'A', currencies: ['EUR'] });
    const b = await createWhiteLabel(deps(), { name: 'B', currencies: ['EUR'] });
    const cache = cachedWhiteLabels(deps(), 60_000);
    const first = cache.get(b.id);
    await cache.get(a.id);
    await updateWhiteLabel(deps(), { id: a.id, changes: { name: 'A2' } });
    expect(cache.get(b.id)).toBe(first);
    expect((await cache.get(a.id)).name).toBe('A2');
  });
});
