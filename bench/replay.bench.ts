/**
 * The time to replay one real season through the whole platform at max speed, as the season test runs
 * it — the `bookie replay … --speed max --json` command as a child process, Bookie in it on an in-memory PGlite,
 * the reference wallet as its own child process.
 *
 *   npm run bench -- replay [bets=5320] [csv=packages/simulator/data/E0_2324.csv]
 *
 * In the same run, the baseline: the same season with a single bet — the trading commands, the feed and the
 * settlement of every market, which a replay pays whatever its bets. The difference over the bets is the cost of a
 * bet (placement, its callbacks, its settlement). The target is absolute: under 120 s with ≥ 5,000 bets.
 * Both runs must reconcile, or the bench fails.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryArgs } from '@bookie/process';
import type { BenchResult } from './types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface ReplayJson {
  bets: { placed: number; accepted: number };
  reconciliation: { ok: boolean; problems: string[] };
  timing: { replay_s: number; elapsed_s: number; trading_commands: number };
}

/** Runs `bookie replay` to its end; resolves to its JSON report and the command's wall time, s. */
function replay(csv: string, bets: number): Promise<{ report: ReplayJson; wallS: number }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...entryArgs(join(root, 'packages/server')),
      'replay',
      csv,
      '--speed',
      'max',
      '--seed',
      '1',
      '--bets',
      String(bets),
      '--json',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallS = (performance.now() - started) / 1000;
      try {
        const report = JSON.parse(out) as ReplayJson;
        if (code !== 0 || !report.reconciliation.ok)
          reject(new Error(`bookie replay --bets ${bets} exited ${code}: ${report.reconciliation.problems}`));
        else resolve({ report, wallS });
      } catch {
        reject(new Error(`bookie replay --bets ${bets} exited ${code} without a JSON report`));
      }
    });
  });
}

export default async function run(args: string[]): Promise<BenchResult> {
  const bets = Number(args[0] ?? 5320);
  const csv = args[1] ?? join(root, 'packages/simulator/data/E0_2324.csv');
  const baseline = await replay(csv, 1);
  const full = await replay(csv, bets);
  const t = full.report.timing;
  const perBetMs = ((t.replay_s - baseline.report.timing.replay_s) * 1000) / full.report.bets.placed;
  return {
    name: 'replay',
    metrics: {
      replay_s: t.replay_s,
      command_s: full.wallS,
      bets_placed: full.report.bets.placed,
      bets_accepted: full.report.bets.accepted,
      bets_per_s: full.report.bets.placed / t.replay_s,
      trading_commands: t.trading_commands,
      baseline_replay_s: baseline.report.timing.replay_s,
      ratio_to_baseline: t.replay_s / baseline.report.timing.replay_s,
      ms_per_bet_over_baseline: perBetMs,
      ratio_to_target_120s: t.replay_s / 120,
    },
    note: `${csv.split('/').pop()} at max speed, seed 1, in-memory PGlite; baseline = the same season with 1 bet; both reconciled`,
  };
}
