/**
 * Partner-reported bets (`POST /bets`, the risk management mode; docs/adr/0023-mts-and-advisory.md): decisions/s and
 * p50/p99 at 32 in flight with no bet delay — a real `bookie start` process on Postgres (durable commits), the risk
 * engine on with a liability limit every outcome stays under, singles and expresses of 2 on 20 events — next to,
 * in the same run, a bare authenticated route that makes one durable INSERT per request (bench/bare-chain.ts
 * `authed`). Targets on 2 cores: ratio ≥ 0.5 and p99 ≤ 25 ms.
 *
 *   npm run bench -- mts [bets=4000] [inFlight=32]
 *   npm run bench -- mts [bets=3000] [inFlight=32] profile   — per decision: CPU, statements, transactions, row
 *     writes, on a throwaway cluster after a 5,000-decision warm-up, no baseline (bench/profile.ts)
 *
 * Needs Postgres: DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres (bench databases are created and
 * dropped).
 */
import { createTestDatabase } from '@bookie/storage';
import { sampleEvent } from '../packages/server/src/modules/trading/fixtures.js';
import { createPartner, partnerToken, TEST_ADMIN_TOKEN } from '../packages/server/src/testing/partner.js';
import { startBookie } from '../packages/server/src/testing/process.js';
import { spawnBare } from './bare-process.js';
import { closedLoop } from './load.js';
import { PROFILE_WARM_UP, profileMode, profiler, startProfileCluster } from './profile.js';
import type { BenchResult } from './types.js';

export default async function run(args: string[]): Promise<BenchResult[]> {
  const total = Number(args[0] ?? 4000);
  const inFlight = Number(args[1] ?? 32);
  const profile = profileMode(args);
  const cluster = profile ? await startProfileCluster() : undefined;
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  if (cluster) {
    try {
      return await bookieRun(total, inFlight, cluster);
    } finally {
      cluster.stop();
    }
  }

  // the baseline: authenticated, one durable insert, in the same run
  const token = 'bench-token-0123456789';
  const bareDb = await createTestDatabase({});
  const bare = await spawnBare(['authed', token, bareDb.url as string]);
  const bareBody = JSON.stringify({ bet_id: 'x', stake: { value: '1', currency_code: 'EUR' } });
  const bareNext = () => ({
    path: '/bets',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: bareBody,
  });
  await closedLoop({ url: bare.url, total: 1000, inFlight, next: bareNext, isOk: (s) => s === 201 });
  const base = await closedLoop({ url: bare.url, total, inFlight, next: bareNext, isOk: (s) => s === 201 });
  await bare.kill();
  await bareDb.close();
  const { res } = await bookieRun(total, inFlight);
  return [
    {
      name: 'report-bet',
      metrics: {
        decisions_per_s: res.perSecond,
        p50_ms: res.p50Ms,
        p99_ms: res.p99Ms,
        not_accepted: res.other,
        bare_authed_insert_per_s: base.perSecond,
        bare_p50_ms: base.p50Ms,
        bare_p99_ms: base.p99Ms,
        ratio_to_bare: res.perSecond / base.perSecond,
      },
      note: `${total} reported bets (3 singles : 1 express of 2), ${inFlight} in flight, no bet delay, risk engine on, bookie on Postgres; baseline: an authenticated route with one durable INSERT`,
    },
  ];
}

/** Bookie's phase; with a profile cluster, a 5,000-decision warm-up and the per-decision profile. */
async function bookieRun(
  total: number,
  inFlight: number,
  cluster?: Awaited<ReturnType<typeof startProfileCluster>>,
): Promise<BenchResult[] & { res: Awaited<ReturnType<typeof closedLoop>> }> {
  const db = await createTestDatabase({});
  const bookie = await startBookie(['--db-url', db.url as string], {
    env: {
      BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: '20',
      PARTNER_RATE_LIMIT: '0',
    },
  });
  const partner = await createPartner(
    { baseUrl: bookie.url },
    { limits: { min_stake: '0.1', max_stake: '100000', max_payout: null } },
  );
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const events: string[] = [];
  for (let i = 0; i < 20; i++) {
    const ev = sampleEvent({ markets: 2 });
    await fetch(`${bookie.url}/trading/sport-events`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify(ev),
    });
    events.push(ev.id as string);
  }
  for (const phase of ['live', 'prematch']) {
    await fetch(`${bookie.url}/admin/risk/limits`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({
        white_label_id: partner.whiteLabelId,
        market_type_id: '*',
        phase,
        liability_eur: '1000000000',
      }),
    });
  }
  const access = await partnerToken(bookie.url, partner.clientId, partner.clientSecret);
  await new Promise((r) => setTimeout(r, 500));
  let n = 0;
  const sel = (k: number) => ({
    sport_event_id: events[k % events.length],
    market_id: String(1 + (k % 2)),
    odd_id: String(1 + (k % 3)),
    value: '1.5',
  });
  const next = (w: number, i: number) => {
    const k = n++;
    const express = k % 4 === 3;
    return {
      path: '/bets',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
      body: JSON.stringify({
        bet_id: `bench-${k}`,
        player_id: `p-${w}-${i % 50}`,
        type: express ? { code: 1, system_sizes: [2] } : { code: 0, system_sizes: [1] },
        stake: { value: '1', currency_code: 'EUR' },
        selections: express ? [sel(k), sel(k + 1)] : [sel(k)],
        odds_strategy: 3,
        created_at: new Date().toISOString(),
      }),
    };
  };
  const accepted = (s: number, b: string) => s === 201 && b.includes('"status":{"code":1,');
  await closedLoop({
    url: bookie.url,
    total: cluster ? PROFILE_WARM_UP : 1000,
    inFlight,
    next,
    isOk: accepted,
  });
  const prof = cluster ? profiler(cluster, { bookie: db.url }, { bookie: bookie.child.pid }) : undefined;
  await prof?.begin();
  const res = await closedLoop({ url: bookie.url, total, inFlight, next, isOk: accepted });
  const profiled = await prof?.end(Math.max(1, res.ok + res.other));
  await bookie.kill('SIGTERM');
  await db.close();
  if (profiled) process.stdout.write(`${profiled.detail.join('\n')}\n`);
  const out: BenchResult[] = profiled
    ? [
        {
          name: 'report-bet-profile',
          metrics: {
            decisions_per_s: res.perSecond,
            p50_ms: res.p50Ms,
            p99_ms: res.p99Ms,
            not_accepted: res.other,
            ...profiled.metrics,
          },
          note: `per decision after a ${PROFILE_WARM_UP}-decision warm-up: ${total} reported bets, ${inFlight} in flight, throwaway cluster (counts exact, CPU indicative)`,
        },
      ]
    : [];
  return Object.assign(out, { res });
}
