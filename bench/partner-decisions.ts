/**
 * The partner's decision paths under load, shared by the `mts`, `advisory` and `restrictions` benches: a real
 * `bookie start` process on Postgres (durable commits), the risk engine on with a liability limit every outcome stays
 * under, 20 events of 2 markets, and closed-loop requests of one path:
 * - `report`: `POST /bets` (the risk management mode, docs/adr/0023-mts-and-advisory.md), singles and expresses of 2
 *   (3 : 1), odds strategy 3, no bet delay; a decision is an accepted bet;
 * - `advisory`: `POST /bets/advisory` (the advisory mode), the same bets at the published odds; a decision is a
 *   recorded bet with its advice;
 * - `restrictions`: `GET /restrictions`, the same bets as query parameters; a decision is an answer with no
 *   restriction (nothing is recorded but a player's first request).
 *
 * Without `profile`, the path runs next to, in the same run, a bare authenticated route that makes one durable
 * INSERT per request (bench/bare-chain.ts `authed`). With it, on a throwaway cluster after a 5,000-decision warm-up,
 * per decision: CPU, statements, transactions, row writes and (`BENCH_PROF=<dir>`) the grouped CPU profile of the
 * measured phase (bench/profile.ts).
 */
import { createTestDatabase } from '@bookie/storage';
import { sampleEvent } from '../packages/server/src/modules/trading/fixtures.js';
import { createPartner, partnerToken, TEST_ADMIN_TOKEN } from '../packages/server/src/testing/partner.js';
import { startBookie } from '../packages/server/src/testing/process.js';
import { spawnBare } from './bare-process.js';
import { ADMIN_HEADERS, setUnreachableLiabilityLimit } from './bookie-requests.js';
import { closedLoop, type LoadResult } from './load.js';
import { cpuProfiledEnv, PROFILE_WARM_UP, profileMode, profiler, startProfileCluster } from './profile.js';
import { benchChildOptions } from './timeline.js';
import type { BenchResult } from './types.js';

/** A partner decision path the benches drive. */
export type PartnerPath = 'report' | 'advisory' | 'restrictions';

const WHAT: Record<PartnerPath, string> = {
  report: 'reported bets (POST /bets, 3 singles : 1 express of 2, odds strategy 3, no bet delay)',
  advisory: 'advisory bets (POST /bets/advisory, 3 singles : 1 express of 2, at the published odds)',
  restrictions: 'restrictions (GET /restrictions, 3 singles : 1 express of 2, odds strategy 3)',
};

/**
 * Runs `path`: `args` are `[decisions] [inFlight] [profile]`. Without `profile`, the result holds the path's
 * decisions/s and latency next to the bare route's (`ratio_to_bare`); with it, the per-decision profile.
 */
export async function runPartnerPath(
  path: PartnerPath,
  args: string[],
  defaults: { decisions: number; inFlight: number },
): Promise<BenchResult[]> {
  const total = Number(args[0] ?? defaults.decisions);
  const inFlight = Number(args[1] ?? defaults.inFlight);
  const name = path === 'report' ? 'report-bet' : path;
  if (profileMode(args)) {
    const cluster = await startProfileCluster();
    try {
      const { res, profiled } = await bookieRun(path, total, inFlight, cluster);
      if (profiled) process.stdout.write(`${profiled.detail.join('\n')}\n`);
      return [
        {
          name: `${name}-profile`,
          metrics: {
            decisions_per_s: res.perSecond,
            p50_ms: res.p50Ms,
            p90_ms: res.p90Ms,
            p99_ms: res.p99Ms,
            p999_ms: res.p999Ms,
            max_ms: res.maxMs,
            not_accepted: res.other,
            ...profiled?.metrics,
          },
          note: `per decision after a ${PROFILE_WARM_UP}-decision warm-up: ${total} ${WHAT[path]}, ${inFlight} in flight, risk engine on, throwaway cluster (counts exact, CPU indicative)`,
        },
      ];
    } finally {
      cluster.stop();
    }
  }
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  const base = await bareAuthedInsert(total, inFlight);
  const { res } = await bookieRun(path, total, inFlight);
  return [
    {
      name,
      metrics: {
        decisions_per_s: res.perSecond,
        p50_ms: res.p50Ms,
        p90_ms: res.p90Ms,
        p99_ms: res.p99Ms,
        p999_ms: res.p999Ms,
        max_ms: res.maxMs,
        not_accepted: res.other,
        bare_authed_insert_per_s: base.perSecond,
        bare_p50_ms: base.p50Ms,
        bare_p99_ms: base.p99Ms,
        ratio_to_bare: res.perSecond / base.perSecond,
      },
      note: `${total} ${WHAT[path]}, ${inFlight} in flight, risk engine on, bookie on Postgres; baseline: an authenticated route with one durable INSERT`,
    },
  ];
}

/** The baseline: an authenticated route making one durable insert per request, warmed up with 1,000. */
async function bareAuthedInsert(total: number, inFlight: number): Promise<LoadResult> {
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
  return base;
}

/** Bookie's phase of `path`; with a profile cluster, a 5,000-decision warm-up and the per-decision profile. */
async function bookieRun(
  path: PartnerPath,
  total: number,
  inFlight: number,
  cluster?: Awaited<ReturnType<typeof startProfileCluster>>,
) {
  const db = await createTestDatabase({});
  const childOpts = benchChildOptions('bookie');
  const bookie = await startBookie(['--db-url', db.url as string], {
    nodeArgs: childOpts.nodeArgs,
    env: {
      BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: '20',
      PARTNER_RATE_LIMIT: '0',
      // BENCH_PROF=<dir>: a CPU profile of the Bookie process there (in profile mode, of the measured phase)
      ...cpuProfiledEnv('bookie', cluster !== undefined),
      ...childOpts.env,
    },
  });
  const partner = await createPartner(
    { baseUrl: bookie.url },
    { limits: { min_stake: '0.1', max_stake: '100000', max_payout: null } },
  );
  const events: Array<{ id: string; odds: (market: string, odd: string) => string }> = [];
  for (let i = 0; i < 20; i++) {
    const ev = sampleEvent({ markets: 2 });
    await fetch(`${bookie.url}/trading/sport-events`, {
      method: 'POST',
      headers: ADMIN_HEADERS,
      body: JSON.stringify(ev),
    });
    const published = (await (
      await fetch(`${bookie.url}/trading/sport-events/${ev.id}`, { headers: ADMIN_HEADERS })
    ).json()) as { sport_event: { markets: Record<string, { odds: Record<string, { value: string }> }> } };
    events.push({
      id: ev.id as string,
      odds: (m, o) => published.sport_event.markets[m]?.odds[o]?.value ?? '1.5',
    });
  }
  await setUnreachableLiabilityLimit(bookie.url, partner.whiteLabelId);
  const access = await partnerToken(bookie.url, partner.clientId, partner.clientSecret);
  await new Promise((r) => setTimeout(r, 500));
  const auth = { authorization: `Bearer ${access}` };
  let n = 0;
  const sel = (k: number) => {
    const ev = events[k % events.length] as (typeof events)[number];
    const market = String(1 + (k % 2));
    const odd = String(1 + (k % 3));
    return {
      sport_event_id: ev.id,
      market_id: market,
      odd_id: odd,
      value: path === 'advisory' ? ev.odds(market, odd) : '1.5',
    };
  };
  const next = (w: number, i: number) => {
    const k = n++;
    const express = k % 4 === 3;
    const selections = express ? [sel(k), sel(k + 1)] : [sel(k)];
    const player = `p-${w}-${i % 50}`;
    if (path === 'restrictions') {
      const q = new URLSearchParams({
        player_id: player,
        type_code: express ? '1' : '0',
        stake: '1',
        currency_code: 'EUR',
        odds_strategy: '3',
      });
      for (const s of selections) {
        q.append(
          'selection',
          [s.sport_event_id, s.market_id, s.odd_id, s.value].map(encodeURIComponent).join('/'),
        );
      }
      return { method: 'GET' as const, path: `/restrictions?${q}`, headers: auth };
    }
    return {
      path: path === 'advisory' ? '/bets/advisory' : '/bets',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        bet_id: `bench-${k}`,
        player_id: player,
        type: express ? { code: 1, system_sizes: [2] } : { code: 0, system_sizes: [1] },
        stake: { value: '1', currency_code: 'EUR' },
        selections,
        ...(path === 'report' ? { odds_strategy: 3 } : {}),
        created_at: new Date().toISOString(),
      }),
    };
  };
  const isOk: Record<PartnerPath, (s: number, b: string) => boolean> = {
    report: (s, b) => s === 201 && b.includes('"status":{"code":1,'),
    advisory: (s) => s === 201,
    restrictions: (s, b) => s === 200 && b.includes('"restrictions":[]'),
  };
  const ok = isOk[path];
  await closedLoop({
    url: bookie.url,
    total: cluster ? PROFILE_WARM_UP : 1000,
    inFlight,
    next,
    isOk: ok,
  });
  const prof = cluster
    ? profiler(
        cluster,
        { bookie: db.url },
        // the load generator is this process: its CPU is part of the path's ceiling
        { bookie: bookie.child.pid, client: process.pid },
        { bookie: 'bookie' },
      )
    : undefined;
  await prof?.begin();
  const res = await closedLoop({ url: bookie.url, total, inFlight, next, isOk: ok });
  const profiled = await prof?.end(Math.max(1, res.ok + res.other), res.perSecond);
  await bookie.kill('SIGTERM');
  await db.close();
  return { res, profiled };
}
