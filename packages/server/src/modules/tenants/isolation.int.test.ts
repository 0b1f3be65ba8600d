import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import {
  createSession,
  partnerWithToken,
  TEST_ADMIN_TOKEN,
  type TestPartner,
} from '../../testing/partner.js';

/**
 * Isolation between white labels: a white label never reads or changes another's resources, and
 * ids of another white label get 404, not 403.
 *
 * Each resource type is one entry of RESOURCES: `make` creates a resource owned by a partner, `use` reaches
 * it as some partner and returns the HTTP status. The test checks that the owner gets `ownStatus` and the
 * other white label 404, and that the owner still gets `ownStatus` afterwards (nothing changed).
 * Bets are reached by players through the frame API (a player of another white label with the same player id
 * gets 404). Freebets, insurances and partner-visible deliveries: add an entry here when their routes land.
 */
interface Actor extends TestPartner {
  token: string;
  headers: { authorization: string };
}
interface Resource<R> {
  name: string;
  make(app: FastifyInstance, owner: Actor): Promise<R>;
  use(app: FastifyInstance, as: Actor, resource: R): Promise<number>;
  ownStatus: number;
}

function resource<R>(r: Resource<R>): Resource<unknown> {
  return r as Resource<unknown>;
}

let database: TestDatabase;

/** A bet row of `whiteLabelId` for player `p-iso`, written directly (placement needs a wallet and a book). */
async function insertBet(whiteLabelId: string): Promise<string> {
  const id = randomUUID();
  await sql`insert into bet (id, white_label_id, player_id, currency, bet_type, system_sizes, stake, odds_strategy,
      base_odds, total_odds, state, created_at, placement_deadline)
    values (${id}, ${whiteLabelId}, 'p-iso', 'EUR', 'single', '[]'::jsonb, 10, 0, 1.5, 1.5, 'accepted', now(), now())`.execute(
    database.db,
  );
  return id;
}

const RESOURCES: Resource<unknown>[] = [
  resource<string>({
    name: 'bet: a player of another white label reads a bet by id (frame API)',
    make: (_app, owner) => insertBet(owner.whiteLabelId),
    async use(app, as, id) {
      const session = await createSession(app, as.token, { player_id: 'p-iso' });
      const r = await app.inject({
        method: 'GET',
        url: `/frame-api/bets/${id}`,
        headers: { authorization: `Bearer ${session}` },
      });
      return r.statusCode;
    },
    ownStatus: 200,
  }),
  resource<string>({
    name: 'session token: expire another white label’s player session',
    make: (app, owner) => createSession(app, owner.token, { player_id: 'victim' }),
    async use(app, as, token) {
      const r = await app.inject({
        method: 'POST',
        url: '/token/expire',
        headers: { ...as.headers, 'content-type': 'application/json' },
        payload: { token },
      });
      return r.statusCode;
    },
    ownStatus: 204,
  }),
  resource<string>({
    name: 'credential: revoke another white label’s client id under one’s own white label id',
    async make(app, owner) {
      const r = await app.inject({
        method: 'POST',
        url: `/admin/white-labels/${owner.whiteLabelId}/credentials`,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      return r.json().client_id as string;
    },
    async use(app, as, clientId) {
      const r = await app.inject({
        method: 'POST',
        url: `/admin/white-labels/${as.whiteLabelId}/credentials/${clientId}/revoke`,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      return r.statusCode;
    },
    ownStatus: 200,
  }),
];

describe(`isolation between white labels (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let db: TestDatabase;
  let t: TestApp;
  let a: Actor;
  let b: Actor;
  beforeAll(async () => {
    db = await createTestDatabase();
    database = db;
    t = await createTestApp(db);
    t.app.get('/probe/player', { preHandler: t.app.requirePlayer }, async (req) => req.player);
    a = await partnerWithToken({ database: db }, t.app, { name: 'A', currencies: ['EUR', 'USD'] });
    b = await partnerWithToken({ database: db }, t.app, { name: 'B' });
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const r of RESOURCES) {
    it(`${r.name}: 404 for the other white label, then the owner's access still works`, async () => {
      const res = await r.make(t.app, a);
      expect(await r.use(t.app, b, res)).toBe(404);
      expect(await r.use(t.app, a, res)).toBe(r.ownStatus);
    });
  }

  it('white label: a partner sees only its own white label, and none of the admin API', async () => {
    const me = await t.app.inject({ method: 'GET', url: '/white-label', headers: b.headers });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(b.whiteLabelId);
    expect(JSON.stringify(me.json())).not.toContain('whsec_');
    for (const url of ['/admin/white-labels', `/admin/white-labels/${a.whiteLabelId}`]) {
      const r = await t.app.inject({ method: 'GET', url, headers: b.headers });
      expect(r.statusCode).toBe(401);
    }
  });

  it("session token: another white label's session stays alive after a cross-tenant expire attempt", async () => {
    const token = await createSession(t.app, a.token, { player_id: 'p' });
    await t.app.inject({
      method: 'POST',
      url: '/token/expire',
      headers: { ...b.headers, 'content-type': 'application/json' },
      payload: { token },
    });
    const me = await t.app.inject({
      method: 'GET',
      url: '/probe/player',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ whiteLabelId: a.whiteLabelId, playerId: 'p' });
  });

  it('access token: a session is always created for the caller’s own white label', async () => {
    const session = await createSession(t.app, b.token, { player_id: 'q' });
    const me = await t.app.inject({
      method: 'GET',
      url: '/probe/player',
      headers: { authorization: `Bearer ${session}` },
    });
    expect(me.json().whiteLabelId).toBe(b.whiteLabelId);
    // B's currencies apply, not A's
    const other = await t.app.inject({
      method: 'POST',
      url: '/token/create',
      headers: { ...b.headers, 'content-type': 'application/json' },
      payload: { locale: 'en', currency: 'USD', player_id: 'q' },
    });
    expect(other.statusCode).toBe(400);
  });
});
