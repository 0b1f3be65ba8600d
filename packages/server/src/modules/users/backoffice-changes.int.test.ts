import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/database.js';
import { usersDeps } from './deps.js';
import {
  asUser,
  createTestUsers,
  logInSession,
  type TestSession,
  type UserCall,
  whiteLabelsAB,
} from './users.testing.js';

describe(`backoffice users on the risk routes, and their audit rows (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let db: TestDatabase;
  let t: TestApp;
  let a: string;
  let b: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    t = await createTestApp(db, { keepDatabase: true, env: { LOGIN_RATE_LIMIT: '1000' } });
    ({ a, b } = await whiteLabelsAB(t.deps));
    const ud = usersDeps(t.deps);
    await createTestUsers(ud, [
      { email: 'ops@example.com', role: 'operator' },
      { email: 'admin@a.example', role: 'partner_admin', whiteLabelId: a },
      { email: 'viewer@a.example', role: 'partner_viewer', whiteLabelId: a },
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const session = (email: string): Promise<TestSession> => logInSession(t.app, email);
  const as = (...call: UserCall) => asUser(t.app, ...call);

  const auditRows = (actor: string, action: string) =>
    t.deps.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('actor', '=', actor)
      .where('action', '=', action)
      .execute();

  it("a partner user reads and sets its players' risk group with its session; CSRF and viewers as elsewhere", async () => {
    const s = await session('admin@a.example');
    const read = await as(s, 'GET', '/players/p-1/risk');
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ player_id: 'p-1', group: 'default' });
    const put = await as(s, 'PUT', '/players/p-1/risk', { group: 'blocked' });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    expect(put.json).toMatchObject({ group: 'blocked', group_source: 'partner' });
    expect((await as(s, 'GET', '/players/p-1/risk')).json.group).toBe('blocked');
    // the other white label's player of the same id is untouched
    const ops = await session('ops@example.com');
    const other = await as(ops, 'GET', '/players/p-1/risk', undefined, { 'x-white-label-id': b });
    expect(other.json.group).toBe('default');

    const noCsrf = await as(s, 'PUT', '/players/p-1/risk', { group: 'default' }, { 'x-csrf-token': '' });
    expect(noCsrf.status).toBe(403);
    const v = await session('viewer@a.example');
    expect((await as(v, 'GET', '/players/p-1/risk')).status).toBe(200);
    expect((await as(v, 'PUT', '/players/p-1/risk', { group: 'default' })).status).toBe(403);
    expect((await as(s, 'GET', '/players/p-1/risk')).json.group).toBe('blocked');

    const rows = await auditRows('user:admin@a.example', 'PUT /players/:player_id/risk');
    expect(rows).toHaveLength(1);
    const own = await auditRows('user:admin@a.example', 'risk.player_group');
    expect(own).toHaveLength(1);
  });

  it('an operator user reads exposure and risk settings and changes a group with its session', async () => {
    const ops = await session('ops@example.com');
    expect((await as(ops, 'GET', '/admin/risk/exposure')).status).toBe(200);
    expect((await as(ops, 'GET', '/admin/risk/settings')).status).toBe(200);
    const put = await as(ops, 'PUT', '/admin/risk/groups', { name: 'watch', stake_factor: '0.5' });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    expect(put.json.groups.map((g: { name: string }) => g.name)).toContain('watch');
    expect(
      (await as(ops, 'PUT', '/admin/risk/groups', { name: 'x', stake_factor: '1' }, { 'x-csrf-token': 'no' }))
        .status,
    ).toBe(403);
    const partner = await session('admin@a.example');
    expect((await as(partner, 'GET', '/admin/risk/exposure')).status).toBe(403);
    expect((await auditRows('user:ops@example.com', 'PUT /admin/risk/groups')).length).toBe(1);
  });

  it('a change that fails leaves no audit row; a change that commits always has its row, in its transaction', async () => {
    const s = await session('admin@a.example');
    const before = await auditRows('user:admin@a.example', 'PUT /players/:player_id/risk');
    const bad = await as(s, 'PUT', '/players/p-2/risk', { group: 'no-such-group' });
    expect(bad.status).toBe(400);
    expect(await auditRows('user:admin@a.example', 'PUT /players/:player_id/risk')).toHaveLength(
      before.length,
    );

    // an audit row that cannot be written takes the change down with it
    await sql`ALTER TABLE audit_log ADD CONSTRAINT audit_test_refuse CHECK (action <> 'PUT /players/:player_id/risk') NOT VALID`.execute(
      t.deps.database.db,
    );
    try {
      const refused = await as(s, 'PUT', '/players/p-3/risk', { group: 'blocked' });
      expect(refused.status).toBeGreaterThanOrEqual(500);
    } finally {
      await sql`ALTER TABLE audit_log DROP CONSTRAINT audit_test_refuse`.execute(t.deps.database.db);
    }
    expect((await as(s, 'GET', '/players/p-3/risk')).json.group).toBe('default');

    const ok = await as(s, 'PUT', '/players/p-3/risk', { group: 'blocked' });
    expect(ok.status).toBe(200);
    const rows = await t.deps.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('subject', '=', `player:${a}:p-3`)
      .where('actor', '=', 'user:admin@a.example')
      .execute();
    expect(rows.map((r) => r.action).sort()).toEqual(['PUT /players/:player_id/risk', 'risk.player_group']);
    const details = rows.find((r) => r.action.startsWith('PUT'))?.details as {
      before: { group: string };
      after: { group: string };
    };
    expect(details.before.group).toBe('default');
    expect(details.after.group).toBe('blocked');
    // written in the change's transaction, not after the answer (that row would carry the answer's status)
    expect(details).not.toHaveProperty('status');
  });
});
