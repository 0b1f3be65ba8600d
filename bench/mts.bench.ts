/**
 * Partner-reported bets (`POST /bets`, the risk management mode; docs/adr/0023-mts-and-advisory.md): decisions/s and
 * p50/p99 at 32 in flight with no bet delay — a real `bookie start` process on Postgres (durable commits), the risk
 * engine on with a liability limit every outcome stays under, singles and expresses of 2 on 20 events — next to,
 * in the same run, a bare authenticated route that makes one durable INSERT per request (bench/bare-chain.ts
 * `authed`). Targets on 2 cores: ratio ≥ 0.5 and p99 ≤ 25 ms.
 *
 *   npm run bench -- mts [bets=4000] [inFlight=32]
 *   npm run bench -- mts [bets=3000] [inFlight=32] profile   — per decision: CPU, statements, transactions, row
 *     writes, on a throwaway cluster after a 5,000-decision warm-up, no baseline (bench/profile.ts);
 *     `BENCH_PROF=<dir>` adds the grouped CPU profile of the measured phase
 *
 * The advisory mode and `GET /restrictions` have benches of the same shape: `advisory`, `restrictions`
 * (bench/partner-decisions.ts).
 *
 * Needs Postgres: DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres (bench databases are created and
 * dropped).
 */
import { runPartnerPath } from './partner-decisions.js';
import type { BenchResult } from './types.js';

export default function run(args: string[]): Promise<BenchResult[]> {
  return runPartnerPath('report', args, { decisions: 4000, inFlight: 32 });
}
