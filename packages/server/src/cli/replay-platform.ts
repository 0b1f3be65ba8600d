import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CreatedWhiteLabel, CreateWhiteLabelBody } from '@bookie/contracts';
import { entryArgs, startListening } from '@bookie/process';
import type { ReplayTarget } from '@bookie/simulator';

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
