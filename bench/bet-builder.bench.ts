/**
 * The bet builder's score model against real results (docs/adr/0042-bet-builder-pricing.md, "Against real
 * results"): for every match of football-data seasons, the model is fitted to the closing (kick-off) 1X2 and
 * over/under 2.5 odds, and its mean probability of ~30 common 2–3-leg combinations is compared with their hit rate
 * on the real scores (`builderCalibration` of @bookie/simulator). Prints the table per season (with more than one
 * file) and pooled; also measures the fit time per match.
 *
 *   npm run -s bench -- bet-builder [csv=packages/simulator/data/E0_2324.csv …]
 */
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BuilderCalibration,
  builderCalibration,
  type CalibrationMatch,
  calibrated,
  calibrationMatchOf,
  formatBuilderCalibration,
  readFootballData,
} from '@bookie/simulator';
import type { BenchResult } from './types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function summary(name: string, c: BuilderCalibration, ms?: number): BenchResult {
  const big = c.lines.filter((l) => l.n >= 100);
  return {
    name,
    metrics: {
      matches: c.matches,
      skipped: c.skipped,
      combinations_n_ge_100: big.length,
      within_10pct: big.filter((l) => calibrated(l)).length,
      abs_z_gt_2: c.lines.filter((l) => Math.abs(l.z) > 2).length,
      ...(ms === undefined ? {} : { mean_fit_ms: ms / Math.max(1, c.matches + c.skipped) }),
    },
    note: 'within_10pct: |model p − hit rate| / hit rate ≤ 10 % with n ≥ 100',
  };
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const files = args.length > 0 ? args : [join(root, 'packages/simulator/data/E0_2324.csv')];
  const all: CalibrationMatch[] = [];
  const results: BenchResult[] = [];
  for (const file of files) {
    const season = await readFootballData(file, { strict: false });
    const matches = season.matches.map(calibrationMatchOf).filter((m) => m !== undefined);
    all.push(...matches);
    if (files.length > 1) {
      const c = builderCalibration(matches);
      process.stdout.write(`\n${basename(file)}\n${formatBuilderCalibration(c).join('\n')}\n`);
      results.push(summary(basename(file), c));
    }
  }
  const started = performance.now();
  const pooled = builderCalibration(all);
  const ms = performance.now() - started;
  process.stdout.write(
    `\n${files.length > 1 ? `pooled (${files.length} files)` : basename(files[0]!)}\n` +
      `${formatBuilderCalibration(pooled).join('\n')}\n\n`,
  );
  results.push(summary(files.length > 1 ? 'pooled' : basename(files[0]!), pooled, ms));
  return results;
}
