/**
 * The cost of a backoffice user's audit row written in the change's own transaction: the same change
 * (`PUT /players/{id}/risk`) by a partner user's session (the change, its own audit row, and the user's row with the
 * state before and after, in one transaction) next to the partner's bearer token (the change and its own row only),
 * on an in-process server (PGlite in memory), one request at a time. The ratio is what to compare.
 */
import { request } from 'undici';
import { startServer } from '../packages/server/src/app/server.js';
import { loadConfig } from '../packages/server/src/platform/config.js';
import { createPartner, partnerToken, TEST_ADMIN_TOKEN } from '../packages/server/src/testing/partner.js';
import type { BenchResult } from './types.js';

async function timeEach(n: number, call: (i: number) => Promise<void>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await call(i);
  return (performance.now() - start) / n;
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const n = Number(args[0] ?? 300);
  const server = await startServer({
    ...loadConfig({ LOG_LEVEL: 'warn', BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOGIN_RATE_LIMIT: '0' }),
    port: 0,
    dataDir: undefined,
  });
  const p = await createPartner({ baseUrl: server.url }, {});
  const token = await partnerToken(server.url, p.clientId, p.clientSecret);
  const password = 'bench password 0123456789';
  await request(`${server.url}/admin/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench@partner.test',
      role: 'partner_admin',
      white_label_id: p.whiteLabelId,
      password,
    }),
  }).then((r) => r.body.dump());
  const login = await request(`${server.url}/backoffice/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@partner.test', password }),
  });
  const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
  const csrf = ((await login.body.json()) as { csrf_token: string }).csrf_token;

  const put = async (headers: Record<string, string>, i: number) => {
    const r = await request(`${server.url}/players/p-${i % 50}/risk`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ group: i % 2 === 0 ? 'vip' : 'default' }),
    });
    if (r.statusCode !== 200) throw new Error(`PUT answered ${r.statusCode}: ${await r.body.text()}`);
    await r.body.dump();
  };
  const bearer = { authorization: `Bearer ${token}` };
  const session = { cookie, 'x-csrf-token': csrf };
  await timeEach(50, (i) => put(bearer, i));
  await timeEach(50, (i) => put(session, i));
  const bearerMs = await timeEach(n, (i) => put(bearer, i));
  const sessionMs = await timeEach(n, (i) => put(session, i));
  await server.stop();
  return [
    {
      name: 'player-risk-change',
      metrics: { session_ms: sessionMs, bearer_ms: bearerMs, ratio_session_to_bearer: sessionMs / bearerMs },
      note: `${n} changes each, one at a time; baseline: the same change by the partner's bearer token`,
    },
  ];
}
