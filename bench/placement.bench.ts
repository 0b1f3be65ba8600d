/**
 * Frame placement end to end: accepted bets/s and p50/p99 latency at 64 in flight — a real `bookie start` process on
 * Postgres (durable commits), the reference wallet as another process on loopback, players placing singles
 * through the frame API — next to a bare HTTP chain of the same shape measured in the same run, and that chain
 * again with the four durable commits a bet needs (one INSERT or UPDATE each, bench/bare-chain.ts).
 *
 *   npm run bench -- placement [bets=5000] [inFlight=64]
 *   npm run bench -- placement [bets] [inFlight] risk   — the risk engine on against off, in the same run
 *   npm run bench -- placement [bets=3000] [inFlight] profile   — per accepted bet: CPU, statements, transactions,
 *     row writes of Bookie and the wallet, on a throwaway cluster after a 5,000-bet warm-up, no baselines
 *     (bench/profile.ts); `BENCH_PROF=<dir>` adds the grouped CPU profiles of Bookie and the wallet over the measured
 *     phase (the /bet/accept deliveries included)
 *
 * Needs Postgres: DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres (a bench database is created and
 * dropped).
 */
import { createTestDatabase } from '@bookie/storage';
import { startWalletProcess } from '@bookie/wallet/testing/process';
import { WalletApi } from '@bookie/wallet/testing/wallet-api';
import { sampleEvent } from '../packages/server/src/modules/trading/fixtures.js';
import {
  createPartner,
  createSession,
  partnerToken,
  TEST_ADMIN_TOKEN,
} from '../packages/server/src/testing/partner.js';
import { startBookie } from '../packages/server/src/testing/process.js';
import { spawnBare } from './bare-process.js';
import {
  ADMIN_HEADERS,
  frameAccepted,
  frameSingle,
  setUnreachableLiabilityLimit,
} from './bookie-requests.js';
import { closedLoop } from './load.js';
import { cpuMeter } from './proc-cpu.js';
import { cpuProfiledEnv, PROFILE_WARM_UP, profileMode, profiler, startProfileCluster } from './profile.js';
import { benchChildOptions } from './timeline.js';
import type { BenchResult } from './types.js';
import { postWalletBets, SESSION_PARAMS } from './wallet-alone.js';

/** Runs of {@link walletAloneRate} so far: each run's bets have ids of their own. */
let walletAloneRuns = 0;

/** The wallet alone (no Bookie): `total` accepted bets' two signed callbacks, one bet in flight per player; bets/s. */
const walletAloneRate = (url: string, secret: string, players: string[], total: number) =>
  postWalletBets(url, secret, players, { total, idPrefix: `alone-${walletAloneRuns++}` });

/** Bookie and the reference wallet as processes on fresh Postgres databases; `total` singles at `inFlight`. */
async function bookiePhase(
  total: number,
  inFlight: number,
  extraEnv: Record<string, string>,
  measureWalletAlone: boolean,
  cluster?: Awaited<ReturnType<typeof startProfileCluster>>,
) {
  const bookieDb = await createTestDatabase({});
  const walletDb = await createTestDatabase({});
  const childOpts = benchChildOptions('bookie');
  const bookie = await startBookie(['--db-url', bookieDb.url as string], {
    nodeArgs: childOpts.nodeArgs,
    // the bench's players are load, not people: no per-player rate limit (as in `bookie replay`)
    env: {
      BOOKIE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: '20',
      PLAYER_RATE_LIMIT: '0',
      ...extraEnv,
      // BENCH_PROF=<dir>: a CPU profile of the Bookie process there (in profile mode, of the measured phase)
      ...cpuProfiledEnv('bookie', cluster !== undefined),
      ...childOpts.env,
    },
  });
  const partner = await createPartner({ baseUrl: bookie.url });
  const wallet = await startWalletProcess({
    secret: partner.signingSecret,
    dbUrl: walletDb.url as string,
    // BENCH_PROF=<dir>: the wallet's CPU profile too
    env: cpuProfiledEnv('wallet', cluster !== undefined),
  });
  const api = new WalletApi(wallet.url);
  // BENCH_BARE_WALLET=1: Bookie calls back a bare 204 server instead (to split Bookie's cost from the wallet's)
  const bareTarget = process.env.BENCH_BARE_WALLET ? await spawnBare(['wallet']) : undefined;
  await fetch(`${bookie.url}/admin/white-labels/${partner.whiteLabelId}`, {
    method: 'PATCH',
    headers: ADMIN_HEADERS,
    body: JSON.stringify({ callback_url: bareTarget?.url ?? wallet.url }),
  });
  const ev = sampleEvent({ markets: 4 });
  await fetch(`${bookie.url}/trading/sport-events`, {
    method: 'POST',
    headers: ADMIN_HEADERS,
    body: JSON.stringify(ev),
  });
  // with the risk engine on, a liability limit every outcome stays under: the engine does its whole work per bet
  if (extraEnv.RISK_ENGINE === 'on') await setUnreachableLiabilityLimit(bookie.url, partner.whiteLabelId);
  const access = await partnerToken(bookie.url, partner.clientId, partner.clientSecret);
  const sessions: string[] = [];
  for (let w = 0; w < inFlight; w++) {
    await api.deposit(`bench-${w}`, '1000000');
    sessions.push(
      await createSession(bookie.url, access, { player_id: `bench-${w}`, params: SESSION_PARAMS }),
    );
  }
  // the wallet alone (no Bookie): the place and accept callbacks of each bet, signed, at the same concurrency
  const players = sessions.map((_, w) => `bench-${w}`);
  let walletAlone = Number.NaN;
  if (measureWalletAlone) {
    await walletAloneRate(wallet.url, partner.signingSecret, players, Math.min(1000, total));
    walletAlone = await walletAloneRate(wallet.url, partner.signingSecret, players, total);
  }
  await new Promise((r) => setTimeout(r, 500));
  const next = (w: number, i: number) => frameSingle(sessions[w] as string, ev.id as string, i);
  const accepted = frameAccepted;
  await closedLoop({
    url: bookie.url,
    total: cluster ? PROFILE_WARM_UP : Math.min(1000, total),
    inFlight,
    next,
    isOk: accepted,
  });
  const prof = cluster
    ? profiler(
        cluster,
        { bookie: bookieDb.url, wallet: walletDb.url },
        { bookie: bookie.child.pid, wallet: wallet.child.pid, client: process.pid },
        { bookie: 'bookie', wallet: 'wallet' },
      )
    : undefined;
  await prof?.begin();
  const dbName = (url: string | undefined) => (url ? new URL(url).pathname.slice(1) : '');
  const cpu = cpuMeter({ bookie: bookie.child.pid, wallet: wallet.child.pid, client: process.pid }, [
    dbName(bookieDb.url),
    dbName(walletDb.url),
  ]);
  const res = await closedLoop({ url: bookie.url, total, inFlight, next, isOk: accepted });
  // how long until every /bet/accept reached the wallet
  const t0 = performance.now();
  for (;;) {
    const r = await fetch(`${bookie.url}/admin/callbacks?status=pending&limit=1`, { headers: ADMIN_HEADERS });
    const j = (await r.json()) as { items: unknown[] };
    if (j.items.length === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const drainS = (performance.now() - t0) / 1000;
  // CPU per accepted bet, placement and the /bet/accept deliveries included
  const cpuPerBet = cpu.perOperation(Math.max(1, res.ok));
  const profiled = await prof?.end(Math.max(1, res.ok), res.perSecond);
  await bookie.kill('SIGTERM');
  await wallet.kill('SIGTERM');
  await bareTarget?.kill();
  await bookieDb.close();
  await walletDb.close();
  return { res, drainS, cpuPerBet, walletAlone, profiled };
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const total = Number(args[0] ?? 5000);
  const inFlight = Number(args[1] ?? 64);
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  if (args[2] === 'risk') return riskOnOff(total, inFlight);
  if (profileMode(args)) return profileRun(total, inFlight);

  const body = JSON.stringify({ bet_type: 'single', stake: '1', currency: 'EUR', odds_strategy: 3 });
  const bareNext = () => ({ path: '/', headers: { 'content-type': 'application/json' }, body });
  /** A bare chain's server driven like Bookie: a warm-up, then `total` bets at `inFlight`. */
  const driveBare = async (url: string, warmUp: number) => {
    await closedLoop({ url, total: warmUp, inFlight, next: bareNext, isOk: (s) => s === 200 });
    return closedLoop({ url, total, inFlight, next: bareNext, isOk: (s) => s === 200 });
  };

  // the bare chain first
  const bareWallet = await spawnBare(['wallet']);
  const bareServer = await spawnBare(['server', bareWallet.url]);
  const bare = await driveBare(bareServer.url, 2000);
  await bareServer.kill();
  await bareWallet.kill();

  // the same bare chain, durable: four single-statement commits per bet on Postgres (bare-chain.ts)
  const bareDb = await createTestDatabase({});
  const durableWallet = await spawnBare(['wallet', bareDb.url as string]);
  const durableServer = await spawnBare(['server', durableWallet.url, bareDb.url as string]);
  const durable = await driveBare(durableServer.url, 1000);
  await durableServer.kill();
  await durableWallet.kill();
  await bareDb.close();

  // Bookie
  const { res, drainS, cpuPerBet, walletAlone } = await bookiePhase(total, inFlight, {}, true);
  return [
    {
      name: 'placement',
      metrics: {
        accepted_per_s: res.perSecond,
        p50_ms: res.p50Ms,
        p90_ms: res.p90Ms,
        p99_ms: res.p99Ms,
        p999_ms: res.p999Ms,
        max_ms: res.maxMs,
        not_accepted: res.other,
        accept_callbacks_drained_after_s: drainS,
        bare_chain_per_s: bare.perSecond,
        bare_p50_ms: bare.p50Ms,
        bare_p99_ms: bare.p99Ms,
        ratio_to_bare: res.perSecond / bare.perSecond,
        bare_durable_chain_per_s: durable.perSecond,
        bare_durable_p50_ms: durable.p50Ms,
        bare_durable_p99_ms: durable.p99Ms,
        ratio_to_bare_durable: res.perSecond / durable.perSecond,
        wallet_alone_bets_per_s: walletAlone,
        ratio_to_wallet_alone: res.perSecond / walletAlone,
        ...Object.fromEntries(Object.entries(cpuPerBet).map(([k, ms]) => [`cpu_ms_per_bet_${k}`, ms])),
      },
      note: `${total} singles, ${inFlight} in flight, bookie and wallet as processes on Postgres (durable commits), loopback`,
    },
  ];
}

/**
 * The risk engine's cost on placement (docs/adr/0018-risk-engine.md): the same Bookie phase with `RISK_ENGINE=off`,
 * then on (a liability limit on every outcome, exposure kept, limits re-checked under the lock), then off again;
 * the ratio is on ÷ the mean of the two offs.
 */
async function riskOnOff(total: number, inFlight: number): Promise<BenchResult[]> {
  const off1 = await bookiePhase(total, inFlight, { RISK_ENGINE: 'off' }, false);
  const on = await bookiePhase(total, inFlight, { RISK_ENGINE: 'on' }, false);
  const off2 = await bookiePhase(total, inFlight, { RISK_ENGINE: 'off' }, false);
  const offRate = (off1.res.perSecond + off2.res.perSecond) / 2;
  return [
    {
      name: 'placement-risk',
      metrics: {
        risk_on_accepted_per_s: on.res.perSecond,
        risk_on_p50_ms: on.res.p50Ms,
        risk_on_p99_ms: on.res.p99Ms,
        risk_on_not_accepted: on.res.other,
        risk_off_accepted_per_s_first: off1.res.perSecond,
        risk_off_accepted_per_s_second: off2.res.perSecond,
        risk_off_p99_ms_first: off1.res.p99Ms,
        risk_off_p99_ms_second: off2.res.p99Ms,
        ratio_on_to_off: on.res.perSecond / offRate,
        // where the engine's cost goes: CPU per accepted bet of each process, on against the mean of the offs
        ...Object.fromEntries(
          Object.entries(on.cpuPerBet).flatMap(([k, ms]) => {
            const offMs = ((off1.cpuPerBet[k] ?? Number.NaN) + (off2.cpuPerBet[k] ?? Number.NaN)) / 2;
            return [
              [`cpu_ms_per_bet_on_${k}`, ms],
              [`cpu_ms_per_bet_off_${k}`, offMs],
            ];
          }),
        ),
      },
      note: `${total} singles, ${inFlight} in flight, off / on / off in one run, bookie and wallet as processes on Postgres`,
    },
  ];
}

/** The profile mode: Bookie's phase alone on a throwaway cluster, per accepted bet (bench/profile.ts). */
async function profileRun(total: number, inFlight: number): Promise<BenchResult[]> {
  const cluster = await startProfileCluster();
  try {
    const { res, drainS, profiled } = await bookiePhase(total, inFlight, {}, false, cluster);
    if (profiled) process.stdout.write(`${profiled.detail.join('\n')}\n`);
    return [
      {
        name: 'placement-profile',
        metrics: {
          accepted_per_s: res.perSecond,
          p50_ms: res.p50Ms,
          p90_ms: res.p90Ms,
          p99_ms: res.p99Ms,
          p999_ms: res.p999Ms,
          max_ms: res.maxMs,
          not_accepted: res.other,
          accept_callbacks_drained_after_s: drainS,
          ...profiled?.metrics,
        },
        note: `per accepted bet (its /bet/accept delivery included) after a ${PROFILE_WARM_UP}-bet warm-up: ${total} singles, ${inFlight} in flight, throwaway cluster (counts exact, CPU indicative)`,
      },
    ];
  } finally {
    cluster.stop();
  }
}
