import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CreatedWhiteLabel, CreateWhiteLabelBody } from '@bookie/contracts';
import { formatMoney, parseDecimal, validationError } from '@bookie/core';
import { entryArgs, startListening } from '@bookie/process';
import type { ParsedSeason, ReplayOptions, ReplayResult, ReplayTarget, Speed } from '@bookie/simulator';
import { Command } from 'commander';
import { action, printJson } from './io.js';

// The simulator, the wallet and the server's app load when a replay or the demo runs (dynamic imports), so that
// registering these commands costs the other commands (`bookie start`…) nothing.

/** Where the platform of a replay or a demo runs. */
export interface ReplayPlatform extends ReplayTarget {
  whiteLabelId: string;
  walletAdminToken: string;
  /** `pglite (memory)`, `pglite (<dir>)` or `postgres`. */
  database: string;
  stop(): Promise<void>;
}

/** How to start it. */
export interface ReplayPlatformOptions {
  dbUrl?: string | undefined;
  /** PGlite data directory; default an in-memory database (a replay starts from an empty book). */
  dataDir?: string | undefined;
  /** Bookie's port (default 0: any free one). */
  port?: number;
  /** The wallet's port (default 0). */
  walletPort?: number;
  /** Bookie in this process (default) or as a `bookie start` child process. */
  bookie?: 'in-process' | 'process';
  /** The reference wallet as a `bookie-wallet start` child process (default) or in this process. */
  wallet?: 'process' | 'in-process';
  /** The white label's limits. */
  limits?: { min_stake: string; max_stake: string; max_payout: string };
  /** Bookie's log level (default $LOG_LEVEL, else warn); its logs go to stderr. */
  logLevel?: string;
}

/** The white label's stake limits in a replay: a few planned bets cross them on purpose. */
export const REPLAY_LIMITS = { min_stake: '1', max_stake: '2500', max_payout: '250000' } as const;

/** `bookie` for the child process: the compiled build when fresh, else the sources under tsx. */
const MAIN = () => entryArgs(fileURLToPath(new URL('../..', import.meta.url)));

/** A child process that prints `<name> listening on <url>` once it serves; it stops when this process goes. */
async function spawnListening(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; stop(): Promise<void> }> {
  const proc = await startListening({
    name,
    args,
    env: { ...process.env, ...env },
    listening: new RegExp(`${name} listening on (https?://[^"\\s]+)`),
    timeoutMs: 120_000,
  });
  return {
    url: proc.url,
    async stop() {
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await proc.kill('SIGTERM');
      clearTimeout(timer);
    },
  };
}

async function adminCall<T>(url: string, token: string, method: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * Starts what a replay needs (docs/adr/0011-replay-and-demo.md "Processes"): Bookie on its own database (in this
 * process, or as a `bookie start` child), a white label for the players, and the reference wallet (a
 * `bookie-wallet start` child on an in-memory PGlite, or in this process) holding the white label's signing secret
 * and set as its callback URL.
 */
export async function startReplayPlatform(opts: ReplayPlatformOptions = {}): Promise<ReplayPlatform> {
  const adminToken = `replay-${randomBytes(18).toString('base64url')}`;
  const walletAdminToken = `wallet-${randomBytes(18).toString('base64url')}`;
  const stops: (() => Promise<void>)[] = [];
  // Bookie first (it finishes the callbacks in flight to a wallet that still answers), then the wallet
  const stop = async () => {
    for (const s of stops.splice(0)) await s().catch(() => {});
  };
  try {
    const env: NodeJS.ProcessEnv = {
      BOOKIE_ADMIN_TOKEN: adminToken,
      LOG_LEVEL: opts.logLevel ?? process.env.LOG_LEVEL ?? 'warn',
      // a replay makes one session per player at once, and its players bet at machine speed: no throttling
      TOKEN_RATE_LIMIT: '0',
      PARTNER_RATE_LIMIT: '0',
      PLAYER_RATE_LIMIT: '0',
    };
    const dbArgs = opts.dbUrl ? { dbUrl: opts.dbUrl } : { dataDir: opts.dataDir ?? 'memory' };
    const database = opts.dbUrl ? 'postgres' : `pglite (${dbArgs.dataDir})`;
    let bookieUrl: string;
    if ((opts.bookie ?? 'in-process') === 'in-process') {
      const [{ loadConfig }, { startServer }, { default: pino }] = await Promise.all([
        import('../platform/config.js'),
        import('../app/server.js'),
        import('pino'),
      ]);
      const config = loadConfig({ ...process.env, ...env }, { port: String(opts.port ?? 0), ...dbArgs });
      // logs go to stderr: stdout carries the report (`--json`) or the demo's ticker
      const logger = pino({ level: config.logLevel, base: { svc: 'bookie' } }, pino.destination(2));
      const server = await startServer(config, { logger });
      stops.push(() => server.stop());
      bookieUrl = server.url;
    } else {
      const args = [...MAIN(), 'start', '--port', String(opts.port ?? 0)];
      if (dbArgs.dbUrl) args.push('--db-url', dbArgs.dbUrl);
      else args.push('--data-dir', dbArgs.dataDir as string);
      const proc = await spawnListening('bookie', args, { ...env, LOG_LEVEL: 'info' });
      stops.push(() => proc.stop());
      bookieUrl = proc.url;
    }

    const wlBody: CreateWhiteLabelBody = {
      name: 'Replay partner',
      currencies: ['EUR'],
      allowlist: ['127.0.0.1', '::1'],
      limits: opts.limits ?? { ...REPLAY_LIMITS },
      bet_interval: 0,
      bet_delay: 0,
    };
    const wl = await adminCall<CreatedWhiteLabel>(
      `${bookieUrl}/admin/white-labels`,
      adminToken,
      'POST',
      wlBody,
    );
    const secret = wl.white_label.signing.secret ?? '';

    let walletUrl: string;
    const walletArgs = [
      'start',
      '--port',
      String(opts.walletPort ?? 0),
      '--data-dir',
      'memory',
      '--admin-token',
      walletAdminToken,
      ...(secret ? ['--secret', secret] : []),
    ];
    if ((opts.wallet ?? 'process') === 'process') {
      // the wallet package (…/src/main.ts or …/dist/main.js): its build when fresh, else its sources under tsx
      const walletDir = dirname(dirname(fileURLToPath(import.meta.resolve('@bookie/wallet/main'))));
      const proc = await spawnListening('bookie-wallet', [...entryArgs(walletDir), ...walletArgs], {
        LOG_LEVEL: 'warn',
      });
      stops.push(() => proc.stop());
      walletUrl = proc.url;
    } else {
      const [{ loadWalletConfig }, { startWallet }] = await Promise.all([
        import('@bookie/wallet/config'),
        import('@bookie/wallet/server'),
      ]);
      const config = loadWalletConfig(
        { LOG_LEVEL: 'warn' },
        {
          port: String(opts.walletPort ?? 0),
          dataDir: 'memory',
          adminToken: walletAdminToken,
          ...(secret ? { secret } : {}),
        },
      );
      const w = await startWallet(config, { logger: false });
      stops.push(() => w.stop());
      walletUrl = w.url;
    }
    // the reference wallet implements heartbeats and the cash-out callbacks: announce them, so its frame sessions get
    // heartbeats and its players are offered cash-out
    await adminCall(`${bookieUrl}/admin/white-labels/${wl.id}`, adminToken, 'PATCH', {
      callback_url: walletUrl,
      optional_callbacks: { heartbeat: true, cash_out: true },
    });
    // two more white labels take bets in their own bet slips: one asks Bookie's risk decision, one only its advice
    const reporter = async (name: string) => {
      const created = await adminCall<CreatedWhiteLabel>(
        `${bookieUrl}/admin/white-labels`,
        adminToken,
        'POST',
        {
          ...wlBody,
          name,
        },
      );
      return { whiteLabelId: created.id, clientId: created.client_id, clientSecret: created.client_secret };
    };
    const reporters = {
      mts: await reporter('Replay partner (risk decision)'),
      advisory: await reporter('Replay partner (advice)'),
    };
    return {
      reporters,
      bookieUrl,
      adminToken,
      whiteLabelId: wl.id,
      clientId: wl.client_id,
      clientSecret: wl.client_secret,
      walletUrl,
      walletAdminToken,
      database,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

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

/**
 * Starts the platform, runs `fn` with an abort signal that SIGINT/SIGTERM trip, and stops everything (also on
 * error). A signal ends the command with exit 130.
 */
export async function withPlatform<T>(
  opts: ReplayPlatformOptions,
  fn: (platform: ReplayPlatform, signal: AbortSignal) => Promise<T>,
  onStarted?: (platform: ReplayPlatform) => void,
): Promise<T> {
  const abort = new AbortController();
  let signalled = false;
  const onSignal = () => {
    if (signalled) process.exit(130); // a second Ctrl-C: no more waiting
    signalled = true;
    abort.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let platform: ReplayPlatform | undefined;
  try {
    platform = await startReplayPlatform(opts);
    onStarted?.(platform);
    return await fn(platform, abort.signal);
  } catch (err) {
    if (signalled) {
      await platform?.stop();
      process.stderr.write('\ninterrupted; stopped\n');
      process.exit(130);
    }
    throw err;
  } finally {
    await platform?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
