import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FeedReplica } from '@bookie/sdk';
import pino from 'pino';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../app/server.js';
import { loadConfig } from '../../platform/config.js';
import { selfSignedCertificate, signedCertificate } from '../../testing/certificates.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { createPartner, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { addCertificate, revokeCertificate } from '../tenants/client-certificates.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent } from '../trading/fixtures.js';

/** A CA and a certificate it signs (openssl, loopback names), in `dir`. */
function makePki(dir: string) {
  selfSignedCertificate(dir, 'ca');
  selfSignedCertificate(dir, 'other-ca');
  signedCertificate(dir, 'server', 'ca', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  signedCertificate(dir, 'partner', 'ca', 'extendedKeyUsage=clientAuth\n');
  signedCertificate(dir, 'other-partner', 'ca', 'extendedKeyUsage=clientAuth\n');
  signedCertificate(dir, 'intruder', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  const read = (f: string) => readFileSync(join(dir, f));
  return { read };
}

describe('feed over mutual TLS (bookie start --tls-cert --tls-key --client-ca)', () => {
  let t: TestDatabase;
  let server: RunningServer;
  let dir: string;
  let pki: ReturnType<typeof makePki>;
  let token: string;
  let whiteLabelId: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookie-mtls-'));
    pki = makePki(dir);
    t = await createTestDatabase();
    const config = loadConfig(
      { BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'silent' },
      { tlsCert: join(dir, 'server.crt'), tlsKey: join(dir, 'server.key'), clientCa: join(dir, 'ca.crt') },
    );
    server = await startServer({ ...config, port: 0 }, { database: t, logger: pino({ level: 'silent' }) });
    const p = await createPartner({ database: t });
    whiteLabelId = p.whiteLabelId;
    const agent = new Agent({
      connect: { ca: pki.read('ca.crt'), cert: pki.read('partner.crt'), key: pki.read('partner.key') },
    });
    const res = await request(`${server.url}/oauth/token`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: p.clientId,
        client_secret: p.clientSecret,
      }).toString(),
    });
    token = ((await res.body.json()) as { access_token: string }).access_token;
    await agent.close();
  });
  afterAll(async () => {
    await server?.stop();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTPS and a FeedReplica with the partner certificate syncs', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const { id, version } = await createSportEvent(server.deps, sampleEvent({ markets: 1 }));
    const replica = new FeedReplica({
      baseUrl: server.url,
      token: async () => token,
      tls: { ca: pki.read('ca.crt'), cert: pki.read('partner.crt'), key: pki.read('partner.key') },
      heartbeatIntervalS: 1,
    });
    replica.on('warning', () => {});
    await replica.start();
    await replica.waitFor(version);
    expect(replica.getEvent(id)?.id).toBe(id);
    await replica.stop();
  });

  it('reads the feed with a client certificate bound to the white label alone; refuses one bound to another', async () => {
    const deps = { database: t, clock: { now: () => Date.now() } };
    const bound = await addCertificate(
      deps,
      { whiteLabelId, pem: pki.read('partner.crt').toString() },
      'test',
    );
    expect(bound.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const other = await createPartner({ database: t });
    await addCertificate(
      deps,
      { whiteLabelId: other.whiteLabelId, pem: pki.read('other-partner.crt').toString() },
      'test',
    );
    const agentOf = (name: string) =>
      new Agent({
        connect: { ca: pki.read('ca.crt'), cert: pki.read(`${name}.crt`), key: pki.read(`${name}.key`) },
      });
    const mine = agentOf('partner');
    const { id } = await createSportEvent(server.deps, sampleEvent({ markets: 1 }));
    // no bearer token: /all, /refetch and /log answer on the certificate alone
    const all = await request(`${server.url}/all`, { dispatcher: mine });
    expect(all.statusCode).toBe(200);
    expect(await all.body.text()).toContain(id);
    const refetch = await request(`${server.url}/refetch/sport-event/${id}`, {
      method: 'POST',
      dispatcher: mine,
    });
    expect(refetch.statusCode).toBe(202);
    await refetch.body.text();
    const log = await request(`${server.url}/log`, { dispatcher: mine, headers: { 'last-version': '0' } });
    expect(log.statusCode).toBe(200);
    log.body.destroy();
    // other partner routes still need the token
    const wl = await request(`${server.url}/white-label`, { dispatcher: mine });
    expect(wl.statusCode).toBe(401);
    await wl.body.text();
    // a certificate bound to another white label is refused with this white label's token
    const theirs = agentOf('other-partner');
    const refused = await request(`${server.url}/all`, {
      dispatcher: theirs,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.statusCode).toBe(403);
    await refused.body.text();
    // and their own token works with it (the token endpoint, too, needs a client certificate here)
    const r = await request(`${server.url}/oauth/token`, {
      method: 'POST',
      dispatcher: theirs,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: other.clientId,
        client_secret: other.clientSecret,
      }).toString(),
    });
    const theirToken = ((await r.body.json()) as { access_token: string }).access_token;
    const ok = await request(`${server.url}/all`, {
      dispatcher: theirs,
      headers: { authorization: `Bearer ${theirToken}` },
    });
    expect(ok.statusCode).toBe(200);
    await ok.body.text();
    // revoked: the certificate alone opens nothing
    await revokeCertificate(deps, { whiteLabelId, fingerprint: bound.fingerprint }, 'test');
    const revoked = await request(`${server.url}/all`, { dispatcher: mine });
    expect(revoked.statusCode).toBe(401);
    await revoked.body.text();
    await mine.close();
    await theirs.close();
  });

  it('refuses a connection without a client certificate, or with one from another CA', async () => {
    for (const connect of [
      { ca: pki.read('ca.crt') },
      { ca: pki.read('ca.crt'), cert: pki.read('intruder.crt'), key: pki.read('intruder.key') },
    ]) {
      const agent = new Agent({ connect });
      await expect(
        request(`${server.url}/all`, {
          dispatcher: agent,
          headers: { authorization: `Bearer ${token}` },
        }).then((r) => r.body.text()),
      ).rejects.toThrow();
      await agent.close();
    }
  });
});
