import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase } from '../../testing/database.js';
import { createPartner, createSession, partnerToken } from '../../testing/partner.js';

/** A player stream ends with its session, within the re-check interval of feed streams (docs/adr/0016). */
describe(`frame stream and the session (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let base: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(await createTestDatabase(), { env: { FEED_STREAM_RECHECK_MS: '100' } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const p = await createPartner({ database: t.deps.database });
    token = await partnerToken(t.app, p.clientId, p.clientSecret);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ends /frame-api/stream after POST /token/expire', async () => {
    const session = await createSession(t.app, token, { player_id: 'streamer' });
    const res = await fetch(`${base}/frame-api/stream`, { headers: { authorization: `Bearer ${session}` } });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: ready')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended before it was ready');
      text += decoder.decode(value);
    }
    const expired = await t.app.inject({
      method: 'POST',
      url: '/token/expire',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ token: session }),
    });
    expect(expired.statusCode).toBe(204);
    // the stream ends by itself (a hung stream fails the test by its timeout)
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    // and the session opens no new stream
    const again = await fetch(`${base}/frame-api/stream`, {
      headers: { authorization: `Bearer ${session}` },
    });
    expect(again.status).toBe(401);
    await again.body?.cancel();
  }, 30_000);
});
