/**
 * The reference wallet's own CPU per bet, without Bookie (`npm run bench -- wallet-callbacks [bets=6000]
 * [inFlight=64]`): the wallet process on a fresh Postgres database, and each bet's two signed callbacks
 * (`/bet/place`, then `/bet/accept`, as Bookie sends them, with the session's `Foreign-Params`) posted straight at
 * it, `inFlight` players at a time, after a warm-up of as many bets. Reports bets/s and CPU ms per bet of the wallet
 * process (user and system apart) and of the wallet database's backends, read from /proc: the Node CPU that the SDK's
 * callback handler and the wallet spend per bet, with no Bookie process competing for the cores.
 *
 *   npm run bench -- wallet-callbacks [bets] [inFlight] profile — the same on a throwaway cluster after a 5,000-bet
 *     warm-up, with the wallet database's statements, transactions, row writes, execution time and the cluster's WAL
 *     (bytes, records, full-page images) per bet (bench/profile.ts); `BENCH_PROF=<dir>` adds the wallet's CPU profile
 */
import { generateSigningSecret } from '@bookie/sdk';
import { createTestDatabase } from '@bookie/storage';
import { startWalletProcess } from '@bookie/wallet/testing/process';
import { WalletApi } from '@bookie/wallet/testing/wallet-api';
import { cpuMeter, cpuSplitOf } from './proc-cpu.js';
import { cpuProfiledEnv, PROFILE_WARM_UP, profileMode, profiler, startProfileCluster } from './profile.js';
import type { BenchResult } from './types.js';
import { postWalletBets } from './wallet-alone.js';

export default async function run(args: string[]): Promise<BenchResult[]> {
  const total = Number(args[0] ?? 6000);
  const inFlight = Number(args[1] ?? 64);
  if (profileMode(args)) return profileRun(total, inFlight);
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  const db = await createTestDatabase({});
  const secret = generateSigningSecret();
  const wallet = await startWalletProcess({ secret, dbUrl: db.url as string });
  try {
    const api = new WalletApi(wallet.url);
    const players = Array.from({ length: inFlight }, (_, i) => `wb-player-${i}`);
    for (const p of players) await api.deposit(p, '1000000');
    await postWalletBets(wallet.url, secret, players, { total, idPrefix: 'warm' });
    const dbName = new URL(db.url as string).pathname.slice(1);
    const before = cpuSplitOf(wallet.child.pid);
    const cpu = cpuMeter({ wallet: wallet.child.pid }, [dbName]);
    const rate = await postWalletBets(wallet.url, secret, players, { total, idPrefix: 'measured' });
    const per = cpu.perOperation(total);
    const after = cpuSplitOf(wallet.child.pid);
    return [
      {
        name: 'wallet-callbacks',
        metrics: {
          bets_per_s: rate,
          cpu_wallet_ms: per.wallet ?? Number.NaN,
          cpu_wallet_user_ms: before && after ? (after.user - before.user) / total : Number.NaN,
          cpu_wallet_sys_ms: before && after ? (after.sys - before.sys) / total : Number.NaN,
          cpu_pg_wallet_ms: per.postgres_own ?? Number.NaN,
        },
        note: `per bet (its place and accept callbacks), ${total} bets after ${total} of warm-up, ${inFlight} in flight`,
      },
    ];
  } finally {
    await wallet.kill('SIGTERM');
    await db.close();
  }
}

/** The profile mode: the same bets on a throwaway cluster, per bet (bench/profile.ts). */
async function profileRun(total: number, inFlight: number): Promise<BenchResult[]> {
  const cluster = await startProfileCluster();
  try {
    const db = await createTestDatabase({});
    const secret = generateSigningSecret();
    const wallet = await startWalletProcess({
      secret,
      dbUrl: db.url as string,
      env: cpuProfiledEnv('wallet', true),
    });
    try {
      const api = new WalletApi(wallet.url);
      const players = Array.from({ length: inFlight }, (_, i) => `wb-player-${i}`);
      for (const p of players) await api.deposit(p, '1000000');
      await postWalletBets(wallet.url, secret, players, { total: PROFILE_WARM_UP, idPrefix: 'warm' });
      // the load generator (this process) signs and sends the callbacks: its CPU is part of the ceiling
      const prof = profiler(
        cluster,
        { wallet: db.url },
        { wallet: wallet.child.pid, client: process.pid },
        { wallet: 'wallet' },
      );
      await prof.begin();
      const rate = await postWalletBets(wallet.url, secret, players, { total, idPrefix: 'measured' });
      const profiled = await prof.end(total, rate);
      process.stdout.write(`${profiled.detail.join('\n')}\n`);
      return [
        {
          name: 'wallet-callbacks-profile',
          metrics: { bets_per_s: rate, ...profiled.metrics },
          note: `per bet (its place and accept callbacks) after a ${PROFILE_WARM_UP}-bet warm-up: ${total} bets, ${inFlight} in flight, throwaway cluster (counts exact, CPU indicative)`,
        },
      ];
    } finally {
      await wallet.kill('SIGTERM');
      await db.close();
    }
  } finally {
    cluster.stop();
  }
}
