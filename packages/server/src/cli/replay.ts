import { createWriteStream } from 'node:fs';
import { formatMoney, parseDecimal, validationError } from '@bookie/core';
import type { ParsedSeason, ReplayOptions, ReplayResult, Speed } from '@bookie/simulator';
import { Command } from 'commander';
import { action, printJson } from './io.js';

import {
  REPLAY_LIMITS,
  type ReplayPlatform,
  type ReplayPlatformOptions,
  startReplayPlatform,
  withPlatform,
} from './replay-platform.js';

export { REPLAY_LIMITS, type ReplayPlatform, type ReplayPlatformOptions, startReplayPlatform, withPlatform };

/** Parses `--speed`: `max` or a positive number (N× real time). */
export function parseSpeed(raw: string): Speed {
  if (raw === 'max') return 'max';
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !(n > 0))
    throw validationError('--speed', `expected "max" or a positive number, got "${raw}"`);
  return n;
}

/** Parses a positive whole number option. */
export function parseCount(flag: string, raw: string | undefined, max = 1_000_000): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    throw validationError(flag, `expected a whole number 1..${max}, got "${raw}"`);
  return Number(raw);
}

/** Reads the season files (strict: a malformed row names its file, line and column). */
export async function readSeasons(files: readonly string[]): Promise<ParsedSeason[]> {
  const { readFootballData } = await import('@bookie/simulator');
  const out: ParsedSeason[] = [];
  for (const f of files) {
    try {
      out.push(await readFootballData(f));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw validationError('csv', `no such file: ${f}`);
      throw err;
    }
  }
  return out;
}

/** Writes the audit lines of `--bets-out` (one JSON object per line). */
export async function writeBetsOut(file: string, lines: ReplayResult['lines']): Promise<void> {
  const out = createWriteStream(file);
  await new Promise<void>((resolve, reject) => {
    out.on('error', reject);
    for (const l of lines) out.write(`${JSON.stringify(l)}\n`);
    out.end(resolve);
  });
}

type ReplayFlags = {
  speed: string;
  seed: string;
  bets?: string;
  players?: string;
  concurrency?: string;
  json?: boolean;
  betsOut?: string;
  dbUrl?: string;
  dataDir?: string;
  bookieProcess?: boolean;
  walletInProcess?: boolean;
  riskLimit?: string;
  inPlay?: boolean;
  liveBetsPerMatch?: string;
  matchesInPlay?: string;
  priceEvery?: string;
  oddsStream?: string;
  back?: string;
  stake?: string;
};

/** `--risk-limit`: a positive amount of EUR with at most 6 decimals. */
function parseRiskLimit(raw: string): string {
  const v = parseDecimal(raw, { field: '--risk-limit', maxDecimals: 6, allowZero: false });
  return formatMoney(v);
}

/** `bookie replay <csv>…`: real seasons through the whole platform, then the report and its reconciliation. */
export function replayCommand(): Command {
  return new Command('replay')
    .description(
      'replay football-data.co.uk seasons through the whole platform (trading → feed → bets → wallet callbacks → ' +
        'settlement) with a seeded population of bettors; prints a report with a reconciliation (exit 1 when it fails)',
    )
    .argument('[csv...]', 'football-data.co.uk CSV files (e.g. packages/simulator/data/E0_2324.csv)')
    .option('--speed <max|N>', 'max (as fast as possible) or N× real time', 'max')
    .option('--seed <seed>', 'seed of the bettors (same seed, same bets)', '1')
    .option('--bets <n>', 'bets to place in all (default 14 per match)')
    .option('--players <n>', 'players (default one per 30 bets)')
    .option('--concurrency <n>', 'actions in flight at once (default 24)')
    .option('--json', 'print the report as JSON')
    .option('--bets-out <file>', 'write one JSON line per bet (for an audit against the CSV)')
    .option('--db-url <url>', "Bookie's Postgres (default: an embedded in-memory PGlite)")
    .option(
      '--data-dir <dir>',
      "Bookie's PGlite data directory (default: in memory); it must not hold the season",
    )
    .option(
      '--risk-limit <eur>',
      'a liability limit per outcome (EUR, prematch and live) for the run; the report adds exposure, max_bet ' +
        'declines per market and risk scores by bettor profile',
    )
    .option(
      '--in-play',
      'play each match minute by minute after kick-off: live prices from a Poisson model of the real score, bet ' +
        'stops at goals, live bets under a bet delay and cash-outs; the report adds an in-play section',
    )
    .option('--live-bets-per-match <n>', 'with --in-play: live bets per match (default 6)')
    .option('--matches-in-play <n>', 'with --in-play: matches played side by side at most (default 10)')
    .option(
      '--price-every <minutes>',
      'with --in-play: minutes between two live price updates while nothing happens (default 1; goals always move them)',
    )
    .option('--bookie-process', 'run Bookie as a `bookie start` child process instead of in this process')
    .option('--wallet-in-process', 'run the reference wallet in this process instead of as a child process')
    .option(
      '--odds-stream <file.jsonl>',
      'instead of seasons: a Betfair Exchange stream recording drives one market; a bet placed before the start ' +
        'is quoted for cash-out after every price change (see the operator guide)',
    )
    .option('--back <selection>', 'with --odds-stream: the runner to back (default the first)')
    .option('--stake <eur>', 'with --odds-stream: the stake of the bet (default 10)')
    .action(
      action(async (files: string[], o: ReplayFlags) => {
        if (o.oddsStream) {
          const { replayOddsStream } = await import('./odds-stream.js');
          return replayOddsStream(o.oddsStream, o, {
            dbUrl: o.dbUrl,
            dataDir: o.dataDir,
            bookie: o.bookieProcess ? 'process' : 'in-process',
            wallet: o.walletInProcess ? 'in-process' : 'process',
          });
        }
        if (files.length === 0)
          throw validationError('csv', 'give at least one season file, or --odds-stream');
        const speed = parseSpeed(o.speed);
        const bets = parseCount('--bets', o.bets);
        const players = parseCount('--players', o.players, 100_000);
        const concurrency = parseCount('--concurrency', o.concurrency, 1000);
        const liveBetsPerMatch = parseCount('--live-bets-per-match', o.liveBetsPerMatch, 100);
        const matchesAtOnce = parseCount('--matches-in-play', o.matchesInPlay, 100);
        const priceEveryMin = parseCount('--price-every', o.priceEvery, 45);
        const inPlayFlag = [
          liveBetsPerMatch && '--live-bets-per-match',
          matchesAtOnce && '--matches-in-play',
          priceEveryMin && '--price-every',
        ].find(Boolean);
        if (inPlayFlag && !o.inPlay) throw validationError(inPlayFlag, 'only with --in-play');
        const seasons = await readSeasons(files);
        const { formatReport, progressBar, runReplay } = await import('@bookie/simulator');
        const result = await withPlatform(
          {
            dbUrl: o.dbUrl,
            dataDir: o.dataDir,
            bookie: o.bookieProcess ? 'process' : 'in-process',
            wallet: o.walletInProcess ? 'in-process' : 'process',
          },
          async (platform, signal) => {
            const bar = progressBar();
            try {
              return await runReplay(platform, {
                seasons,
                seed: o.seed,
                speed,
                ...(speed === 'max' ? {} : { maxWaitMs: 2000 }),
                ...(bets ? { bets } : {}),
                ...(o.riskLimit ? { riskLimitEur: parseRiskLimit(o.riskLimit) } : {}),
                ...(o.inPlay
                  ? {
                      inPlay: {
                        ...(liveBetsPerMatch ? { liveBetsPerMatch } : {}),
                        ...(matchesAtOnce ? { matchesAtOnce } : {}),
                        ...(priceEveryMin ? { priceEveryMin } : {}),
                      },
                    }
                  : {}),
                ...(players ? { players } : {}),
                ...(concurrency ? { concurrency } : {}),
                minStake: Number(REPLAY_LIMITS.min_stake),
                maxStake: Number(REPLAY_LIMITS.max_stake),
                signal,
                onProgress: (p) => bar.update(p),
              } satisfies ReplayOptions);
            } finally {
              bar.stop();
            }
          },
        );
        if (o.betsOut) await writeBetsOut(o.betsOut, result.lines);
        if (o.json) printJson(result.report);
        else process.stdout.write(`${formatReport(result.report)}\n`);
        if (!result.report.reconciliation.ok) process.exitCode = 1;
      }),
    );
}
