/**
 * `GET /restrictions` (what placing a bet now would decide, without placing it): each request runs the one decision
 * and records nothing but a player's first request — decisions/s and p50/p99 at 32 in flight on Postgres, next to
 * the bare authenticated insert route of the same run (bench/partner-decisions.ts).
 *
 *   npm run bench -- restrictions [requests=4000] [inFlight=32]
 *   npm run bench -- restrictions [requests=3000] [inFlight=32] profile   — per decision: CPU, statements,
 *     transactions, row writes, on a throwaway cluster after a 5,000-decision warm-up (bench/profile.ts);
 *     `BENCH_PROF=<dir>` adds the grouped CPU profile of the measured phase
 *
 * Needs Postgres: DATABASE_URL, or postgres://postgres@127.0.0.1:5432/postgres.
 */
import { runPartnerPath } from './partner-decisions.js';
import type { BenchResult } from './types.js';

export default function run(args: string[]): Promise<BenchResult[]> {
  return runPartnerPath('restrictions', args, { decisions: 4000, inFlight: 32 });
}
