import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { createPartner, createSession, partnerToken, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { type BookieProcess, startBookie } from '../../testing/process.js';

describe(`partner auth over real HTTP (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let proc: BookieProcess;
  let pg: TestDatabase | undefined;
  beforeAll(async () => {
    pg = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : undefined;
    proc = await startBookie(pg?.url ? ['--db-url', pg.url] : [], {
      env: { BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
    });
  }, 120_000);
  afterAll(async () => {
    await proc?.kill('SIGTERM');
    await pg?.close();
  });

  it('admin creates a partner; it gets a token, calls a partner route, creates a session; revocation applies at once', async () => {
    const admin = { baseUrl: proc.url, adminToken: TEST_ADMIN_TOKEN };
    const p = await createPartner(admin, { allowlist: ['127.0.0.1', '::1'] });
    const token = await partnerToken(proc.url, p.clientId, p.clientSecret);
    const headers = { authorization: `Bearer ${token}` };
    const me = await fetch(`${proc.url}/white-label`, { headers });
    expect(me.status).toBe(200);
    expect((await me.json()).id).toBe(p.whiteLabelId);
    expect(await createSession(proc.url, token, { player_id: 'p1' })).toMatch(/^bkst_/);

    // X-Forwarded-For from an untrusted peer (this test) changes nothing
    const spoof = await fetch(`${proc.url}/white-label`, {
      headers: { ...headers, 'x-forwarded-for': '203.0.113.9' },
    });
    expect(spoof.status).toBe(200);
    const q = await createPartner(admin, { allowlist: ['203.0.113.9'] });
    const qToken = await partnerToken(proc.url, q.clientId, q.clientSecret);
    const qSpoof = await fetch(`${proc.url}/white-label`, {
      headers: { authorization: `Bearer ${qToken}`, 'x-forwarded-for': '203.0.113.9' },
    });
    expect(qSpoof.status).toBe(403);

    const revoke = await fetch(
      `${proc.url}/admin/white-labels/${p.whiteLabelId}/credentials/${p.clientId}/revoke`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      },
    );
    expect(revoke.status).toBe(200);
    const after = await fetch(`${proc.url}/white-label`, { headers });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });
});
