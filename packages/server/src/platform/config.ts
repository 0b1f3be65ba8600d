import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { MAX_SYSTEM_COMBINATIONS } from '@bookie/core';
import {
  ConfigError,
  choiceSetting,
  intSetting as int,
  postgresUrlSetting as postgresUrl,
  readSetting,
} from '@bookie/process';
import { Type } from '@sinclair/typebox';

export { ConfigError };

/**
 * The server's settings, validated once at start. Every value comes from a CLI flag or an environment
 * variable (flags win), read by the one loader of `@bookie/process` (env-schema on TypeBox schemas, shared with the
 * wallet); a bad or missing value is a {@link ConfigError} naming the setting.
 */
export interface Config {
  /**
   * The deployment's environment (`BOOKIE_ENV`: `production`, the default, or `integration`; DECISIONS D51). Only
   * integration serves the MCP server, the sandbox helpers and the partner check; production answers 404 on them.
   */
  environment: BookieEnvironment;
  /** TCP port to listen on (`PORT`, `--port`; default 8080, 0 = any free port). */
  port: number;
  /** Address to bind (`HOST`; default 127.0.0.1). */
  host: string;
  /** Postgres URL (`DATABASE_URL`, `--db-url`); when absent, PGlite runs in-process. */
  databaseUrl: string | undefined;
  /** PGlite data directory (`BOOKIE_DATA_DIR`, `--data-dir`; default `./.bookie`); `memory` for in-memory. */
  dataDir: string | undefined;
  /** Connections in the Postgres pool (`DB_POOL_SIZE`; default 10). */
  dbPoolSize: number;
  /**
   * Statements with parameters run as named prepared statements on Postgres (`DB_PREPARED_STATEMENTS`: 1, the
   * default, or 0 for a pooler that cannot keep them; docs/adr/0015).
   */
  dbPreparedStatements: boolean;
  /**
   * A transaction's statements are sent pipelined on Postgres (`DB_PIPELINE`: 1, the default, or 0 for a pooler that
   * refuses pipelined messages; docs/adr/0070).
   */
  dbPipeline: boolean;
  /** pino log level (`LOG_LEVEL`; default info). */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Operator token for the admin and trading APIs (`BOOKIE_ADMIN_TOKEN`); admin routes are closed without it. */
  adminToken: string | undefined;
  /** How long graceful shutdown may wait for in-flight work, in ms (`SHUTDOWN_TIMEOUT_MS`; default 10000). */
  shutdownTimeoutMs: number;
  /** The trading feed: retention and fan-out (spec 02 "Limits", docs/adr/0004-trading-feed.md). */
  feed: FeedConfig;
  /** HTTPS with optional mutual TLS (`--tls-cert`, `--tls-key`, `--client-ca`); undefined = plain HTTP. */
  tls: TlsConfig | undefined;
  /** Partner callbacks (DECISIONS D7–D10). */
  callbacks: CallbackConfig;
  /** Bet placement. */
  bets: BetsConfig;
  /** The risk engine (docs/adr/0018-risk-engine.md). */
  risk: RiskConfig;
  /** Tenancy: partner and player authentication, rate and size limits (docs/adr/0005-tenancy.md). */
  auth: AuthConfig;
  /** The betting frame: heartbeats and banners (DECISIONS D47–D49, docs/adr/0020-betting-frame.md). */
  frame: FrameConfig;
  /** Several processes on one database: role, leases, doorbell, metrics (docs/adr/0025-scale-out.md). */
  scaleOut: ScaleOutConfig;
  /** The settlement consumer (docs/adr/0008-settlement.md). */
  settlement: SettlementConfig;
}

/** Settings of the settlement consumer. */
export interface SettlementConfig {
  /** Selections per batch transaction (`SETTLEMENT_PAGE_SIZE`; 1..10000, default 1000). */
  pageSize: number;
  /**
   * Pages of a market prepared at once, committed in order (`SETTLEMENT_PAGES_IN_FLIGHT`; 1..8, default 2; 1 = one
   * page at a time; docs/adr/0014).
   */
  pagesInFlight: number;
  /**
   * The consumer's leader lease, ms (`SETTLEMENT_LEASE_TTL_MS`; 1000..600000, default 15000). A dead leader is
   * replaced within twice this.
   */
  leaseTtlMs: number;
  /** How often the sweep of recently accepted bets runs, ms (`SETTLEMENT_SWEEP_MS`; 0..3600000, default 2000; 0 = off). */
  sweepIntervalMs: number;
  /**
   * Failed attempts after which a log entry is quarantined and settlement goes on past it
   * (`SETTLEMENT_QUARANTINE_AFTER`; 1..100, default 5; docs/adr/0016).
   */
  quarantineAfter: number;
}

/** A process's role: `all` (the default: API, feed and background work) or `feed` (a read-only feed node). */
export type ProcessRole = 'all' | 'feed';

/** Settings of running several server processes on one database. */
export interface ScaleOutConfig {
  /**
   * `--role` / `BOOKIE_ROLE`: `all` (default) or `feed`, a feed node serving `/all`, `/log` and the frame
   * catalogue from a Postgres streaming replica; it refuses writes and runs no background work.
   */
  role: ProcessRole;
  /**
   * Lease of the singleton background roles (retention, placement recovery, heartbeats), ms (`LEADER_LEASE_MS`;
   * default 15000, at least 300). A dead leader is replaced within twice this.
   */
  leaderLeaseMs: number;
  /**
   * Cross-process wake-ups by NOTIFY after commit (`DOORBELL`: 1, the default, or 0 to rely on polling only: the
   * outbox's `CALLBACK_POLL_MS` and the feed's poll).
   */
  doorbell: boolean;
  /**
   * A separate port serving only `/metrics` without a token (`METRICS_PORT`; default none: `/metrics` on the main
   * port, with the admin token). Bind it where only the operator's Prometheus reaches it.
   */
  metricsPort: number | undefined;
}

/** Settings of the betting frame's sessions. */
export interface FrameConfig {
  /**
   * Seconds between two heartbeats of a frame session to the partner (`HEARTBEAT_INTERVAL_S`; default 30, D47;
   * 0 = no heartbeats). A session is active when the frame called the frame API in the last two intervals.
   */
  heartbeatIntervalS: number;
  /** Seconds a white label's banners are kept per locale and placement (`BANNER_CACHE_S`; default 60, D48). */
  bannerCacheS: number;
}

/** A deployment's environment (DECISIONS D51). */
export type BookieEnvironment = 'integration' | 'production';

/** Reads `BOOKIE_ENV` (default `production`). */
export function loadEnvironment(env: NodeJS.ProcessEnv): BookieEnvironment {
  return choiceSetting('BOOKIE_ENV', env.BOOKIE_ENV, ['integration', 'production'], 'production');
}

/** Settings of tenancy and authentication. */
export interface AuthConfig {
  /** Proxies whose X-Forwarded-For is believed (`TRUSTED_PROXIES`: comma-separated IPs/CIDRs; default none). */
  trustedProxies: string[];
  /** Lifetime of partner access tokens, in s (`ACCESS_TOKEN_TTL_S`; default 900 = 15 min, D27). */
  accessTokenTtlS: number;
  /**
   * How long a process keeps a partner access token it read (with its credential's revocation and the allowlist),
   * in ms (`ACCESS_TOKEN_CACHE_MS`; default 1000; 0 = read on every request). A change made through this process
   * applies at once; one made through another within this time.
   */
  accessTokenCacheMs: number;
  /** Lifetime of player session tokens, in s (`SESSION_TOKEN_TTL_S`; default 86400). */
  sessionTokenTtlS: number;
  /** Partner requests allowed per credential per window (`PARTNER_RATE_LIMIT`; default 6000; 0 = no limit). */
  partnerRateLimit: number;
  /**
   * Player (frame) requests allowed per player per window (`PLAYER_RATE_LIMIT`; default 600; 0 = no limit); a
   * read-only viewer session counts on its own.
   */
  playerRateLimit: number;
  /** The rate-limit window, in ms (`RATE_LIMIT_WINDOW_MS`; default 60000). */
  rateLimitWindowMs: number;
  /** `POST /oauth/token` requests allowed per client address per window (`TOKEN_RATE_LIMIT`; default 120; 0 = none). */
  tokenRateLimit: number;
  /** Largest request body, in bytes (`BODY_LIMIT_BYTES`; default 1048576); larger ones get 413. */
  bodyLimitBytes: number;
  /** Seconds the previous signing secret still signs after a rotation (`SIGNING_SECRET_GRACE_S`; default 86400). */
  signingGraceS: number;
  /** Lifetime of a backoffice session, in s (`USER_SESSION_TTL_S`; default 28800 = 8 h; D53). */
  userSessionTtlS: number;
  /** Backoffice login attempts allowed per client address per window (`LOGIN_RATE_LIMIT`; default 20; 0 = none). */
  loginRateLimit: number;
  /** Failed logins of one email from one address that start locking that pair (`LOGIN_LOCKOUT_AFTER`; default 5). */
  loginLockoutAfter: number;
  /** The longest lock of an email/address pair, in s (`LOGIN_LOCKOUT_S`; default 900); locks double from 1 s. */
  loginLockoutS: number;
}

/** Settings of the callback outbox dispatcher. */
export interface CallbackConfig {
  /** Timeout of one async callback attempt, ms (`CALLBACK_TIMEOUT_MS`; default 5000). */
  timeoutMs: number;
  /** Callbacks in flight at once per process (`CALLBACK_CONCURRENCY`; default 64). */
  concurrency: number;
  /** Lease on a claimed delivery, ms (`CALLBACK_LEASE_MS`; default 30000; must exceed the timeout). */
  leaseMs: number;
  /** Poll interval when nothing wakes the dispatcher, ms (`CALLBACK_POLL_MS`; default 1000). */
  pollMs: number;
  /**
   * Delivered placement callbacks (`/bet/place`, `/bet/accept`, `/bet/decline`) are removed from the outbox once
   * older than this, in s (`CALLBACK_RETENTION_S`; default 7776000 = 90 days; 0 = kept forever; otherwise at least
   * 86400). Docs: docs/adr/0074-callback-retention.md.
   */
  retentionS: number;
  /** How often the outbox's retention runs, in s (`CALLBACK_RETENTION_INTERVAL_S`; default 3600; 0 = never). */
  retentionIntervalS: number;
}

/** Settings of the trading feed. */
export interface FeedConfig {
  /** Log entries are kept this long, in s (`FEED_LOG_RETENTION_S`; default 259200 = 3 days). */
  logRetentionS: number;
  /** Snapshots of finished events are kept this long after the end, in s (`FEED_SNAPSHOT_RETENTION_S`; 5 days). */
  snapshotRetentionS: number;
  /** How often retention runs, in s (`FEED_RETENTION_INTERVAL_S`; default 3600; 0 = never). */
  retentionIntervalS: number;
  /** Bytes a /log connection may queue before it falls back to catching up (`FEED_CONNECTION_BUFFER_BYTES`; 1 MiB). */
  connectionBufferBytes: number;
  /**
   * How often open /log streams are checked against their credential's revocation and the allowlist, ms
   * (`FEED_STREAM_RECHECK_MS`; default 5000; 0 = never).
   */
  streamRecheckMs: number;
}

/** HTTPS files (PEM). With `clientCaFile`, clients must present a certificate signed by it (mutual TLS). */
export interface TlsConfig {
  /** Server certificate (`--tls-cert`, `TLS_CERT_FILE`). */
  certFile: string;
  /** Server private key (`--tls-key`, `TLS_KEY_FILE`). */
  keyFile: string;
  /** CA of client certificates (`--client-ca`, `TLS_CLIENT_CA_FILE`); absent = no client certificate asked. */
  clientCaFile: string | undefined;
}

/** Settings of bet placement. */
export interface BetsConfig {
  /** Odds acceptance strategy 1 tolerance as a relative fraction, decimal string (`ODDS_TOLERANCE`; default "0"). */
  oddsTolerance: string;
  /**
   * Units of each currency per 1 EUR, for the 50,000 EUR express cap (D17) (`EUR_RATES`, e.g. "USD=1.08,GBP=0.85";
   * EUR=1 always). Combination bets in a currency without a rate are declined.
   */
  eurRates: Record<string, string>;
  /** How long a bet may wait for its hold before recovery force-declines it, ms (`PLACEMENT_DEADLINE_MS`; 30000). */
  placementDeadlineMs: number;
  /** How often the recovery of interrupted placements runs, ms (`PLACEMENT_RECOVERY_MS`; 5000). */
  recoveryIntervalMs: number;
  /**
   * Most combinations a system bet may have (`SYSTEM_MAX_COMBINATIONS`; 1..100000, default 100000); more is declined
   * `bet_type` with reason `too_many_combinations`. Expresses have no maximum (spec 01).
   */
  maxSystemCombinations: number;
  /** The longest a partner-reported bet (`POST /bets`) waits out its bet delay, s (`MTS_MAX_WAIT_S`; 20). */
  mtsMaxWaitS: number;
  /** Share of a cash-out's fair value the platform keeps unless the white label sets its own, decimal fraction in
   * [0, 1) (`CASH_OUT_MARGIN`; 0.05). */
  cashOutMargin: string;
  /** How long a cash-out quote holds, seconds (`CASH_OUT_QUOTE_TTL_S`; 1..300, default 5). */
  cashOutQuoteTtlS: number;
  /** How long a bet builder quote holds, seconds (`BUILDER_QUOTE_TTL_S`; 1..300, default 10). */
  builderQuoteTtlS: number;
}

/** Settings of the risk engine (DECISIONS D34, D37–D40). */
export interface RiskConfig {
  /** Whether the risk engine decides bets and keeps exposure (`RISK_ENGINE` on|off; default on). */
  enabled: boolean;
  /** Share of an outcome's limit past which its odds are shaded, decimal fraction (`RISK_SHADE_FROM`; 0.5). */
  shadeFrom: string;
  /** Share of (odds − 1) taken off at the limit, decimal fraction (`RISK_SHADE_MAX`; 0.2; 0 turns shading off). */
  shadeMax: string;
  /** Seconds after a bet stop, status or odds change during which an event's feed counts as unstable
   * (`DELAY_INSTABILITY_WINDOW_S`; 10). */
  instabilityWindowS: number;
  /** Seconds added to the bet delay while unstable (`DELAY_INSTABILITY_EXTRA_S`; 3). */
  instabilityExtraS: number;
  /** How long a process keeps the limits, groups and delays it read, ms (`RISK_SETTINGS_CACHE_MS`; 1000). */
  settingsCacheMs: number;
}

/** Values given on the command line; they override the environment. */
export interface ConfigOverrides {
  port?: string | undefined;
  dbUrl?: string | undefined;
  dataDir?: string | undefined;
  host?: string | undefined;
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  clientCa?: string | undefined;
  role?: string | undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function addressList(setting: string, raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((e) => {
    const entry = e.trim();
    const [addr = '', prefix, extra] = entry.split('/');
    const family = isIP(addr);
    const max = family === 4 ? 32 : 128;
    if (
      family === 0 ||
      extra !== undefined ||
      (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= max))
    ) {
      throw new ConfigError(setting, `expected IP addresses or CIDR blocks, got "${entry}"`);
    }
    return entry;
  });
}

/** Reads the {@link AuthConfig} settings from the environment. */
export function loadAuthConfig(env: NodeJS.ProcessEnv): AuthConfig {
  return {
    trustedProxies: addressList('TRUSTED_PROXIES', env.TRUSTED_PROXIES),
    accessTokenTtlS: int('ACCESS_TOKEN_TTL_S', env.ACCESS_TOKEN_TTL_S, 900, 1, 86_400),
    accessTokenCacheMs: int('ACCESS_TOKEN_CACHE_MS', env.ACCESS_TOKEN_CACHE_MS, 1000, 0, 60_000),
    sessionTokenTtlS: int('SESSION_TOKEN_TTL_S', env.SESSION_TOKEN_TTL_S, 86_400, 1, 30 * 86_400),
    partnerRateLimit: int('PARTNER_RATE_LIMIT', env.PARTNER_RATE_LIMIT, 6000, 0, 1_000_000_000),
    playerRateLimit: int('PLAYER_RATE_LIMIT', env.PLAYER_RATE_LIMIT, 600, 0, 1_000_000_000),
    rateLimitWindowMs: int('RATE_LIMIT_WINDOW_MS', env.RATE_LIMIT_WINDOW_MS, 60_000, 1, 86_400_000),
    tokenRateLimit: int('TOKEN_RATE_LIMIT', env.TOKEN_RATE_LIMIT, 120, 0, 1_000_000_000),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES, 1_048_576, 1024, 64 * 1_048_576),
    signingGraceS: int('SIGNING_SECRET_GRACE_S', env.SIGNING_SECRET_GRACE_S, 86_400, 0, 30 * 86_400),
    userSessionTtlS: int('USER_SESSION_TTL_S', env.USER_SESSION_TTL_S, 28_800, 60, 30 * 86_400),
    loginRateLimit: int('LOGIN_RATE_LIMIT', env.LOGIN_RATE_LIMIT, 20, 0, 1_000_000),
    loginLockoutAfter: int('LOGIN_LOCKOUT_AFTER', env.LOGIN_LOCKOUT_AFTER, 5, 1, 1000),
    loginLockoutS: int('LOGIN_LOCKOUT_S', env.LOGIN_LOCKOUT_S, 900, 1, 30 * 86_400),
  };
}

const DECIMAL_SETTING = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,12})?$/;

/** A decimal fraction in [0, 1] kept as its decimal string (exact). */
function fraction(setting: string, raw: string | undefined, def: string): string {
  const schema = Type.String({ pattern: '^(0(\\.[0-9]{1,12})?|1(\\.0{1,12})?)$', default: def });
  return readSetting(setting, schema, raw, `a decimal fraction between 0 and 1 such as ${def}`);
}

function loadRiskConfig(env: NodeJS.ProcessEnv): RiskConfig {
  const engine = choiceSetting('RISK_ENGINE', env.RISK_ENGINE, ['on', 'off'], 'on');
  return {
    enabled: engine === 'on',
    shadeFrom: fraction('RISK_SHADE_FROM', env.RISK_SHADE_FROM, '0.5'),
    shadeMax: fraction('RISK_SHADE_MAX', env.RISK_SHADE_MAX, '0.2'),
    instabilityWindowS: int('DELAY_INSTABILITY_WINDOW_S', env.DELAY_INSTABILITY_WINDOW_S, 10, 0, 3600),
    instabilityExtraS: int('DELAY_INSTABILITY_EXTRA_S', env.DELAY_INSTABILITY_EXTRA_S, 3, 0, 3600),
    settingsCacheMs: int('RISK_SETTINGS_CACHE_MS', env.RISK_SETTINGS_CACHE_MS, 1000, 0, 3_600_000),
  };
}

function loadBetsConfig(env: NodeJS.ProcessEnv): BetsConfig {
  const oddsTolerance = readSetting(
    'ODDS_TOLERANCE',
    Type.String({ pattern: DECIMAL_SETTING.source, default: '0' }),
    env.ODDS_TOLERANCE,
    'a decimal fraction such as 0.05',
  );
  const eurRates: Record<string, string> = { EUR: '1' };
  for (const part of (env.EUR_RATES ?? '').split(',').filter((p) => p.trim() !== '')) {
    const m = /^\s*([A-Z]{3})=([0-9.]+)\s*$/.exec(part);
    if (!m?.[1] || !m[2] || !DECIMAL_SETTING.test(m[2]) || /^0(\.0*)?$/.test(m[2])) {
      throw new ConfigError('EUR_RATES', `expected CUR=rate pairs such as USD=1.08, got "${part}"`);
    }
    eurRates[m[1]] = m[2];
  }
  const placementDeadlineMs = int(
    'PLACEMENT_DEADLINE_MS',
    env.PLACEMENT_DEADLINE_MS,
    30_000,
    6_000,
    3_600_000,
  );
  const cashOutMargin = env.CASH_OUT_MARGIN ?? '0.05';
  if (!/^0(\.[0-9]{1,6})?$/.test(cashOutMargin)) {
    throw new ConfigError(
      'CASH_OUT_MARGIN',
      `expected a fraction in [0, 1) such as 0.05, got "${cashOutMargin}"`,
    );
  }
  return {
    oddsTolerance,
    eurRates,
    placementDeadlineMs,
    cashOutMargin,
    cashOutQuoteTtlS: int('CASH_OUT_QUOTE_TTL_S', env.CASH_OUT_QUOTE_TTL_S, 5, 1, 300),
    builderQuoteTtlS: int('BUILDER_QUOTE_TTL_S', env.BUILDER_QUOTE_TTL_S, 10, 1, 300),
    recoveryIntervalMs: int('PLACEMENT_RECOVERY_MS', env.PLACEMENT_RECOVERY_MS, 5_000, 100, 3_600_000),
    maxSystemCombinations: int(
      'SYSTEM_MAX_COMBINATIONS',
      env.SYSTEM_MAX_COMBINATIONS,
      MAX_SYSTEM_COMBINATIONS,
      1,
      MAX_SYSTEM_COMBINATIONS,
    ),
    mtsMaxWaitS: int('MTS_MAX_WAIT_S', env.MTS_MAX_WAIT_S, 20, 0, 600),
  };
}

function loadCallbackConfig(env: NodeJS.ProcessEnv): CallbackConfig {
  const timeoutMs = int('CALLBACK_TIMEOUT_MS', env.CALLBACK_TIMEOUT_MS, 5000, 100, 120_000);
  const leaseMs = int('CALLBACK_LEASE_MS', env.CALLBACK_LEASE_MS, 30_000, 1000, 3_600_000);
  if (leaseMs <= timeoutMs)
    throw new ConfigError('CALLBACK_LEASE_MS', `must exceed CALLBACK_TIMEOUT_MS (${timeoutMs})`);
  const retentionS = int('CALLBACK_RETENTION_S', env.CALLBACK_RETENTION_S, 7_776_000, 0, 3650 * 86_400);
  // a callback younger than a day may still be read by the placement's own recovery: never removed that young
  if (retentionS > 0 && retentionS < 86_400)
    throw new ConfigError('CALLBACK_RETENTION_S', 'must be 0 (kept forever) or at least 86400 (one day)');
  return {
    timeoutMs,
    leaseMs,
    concurrency: int('CALLBACK_CONCURRENCY', env.CALLBACK_CONCURRENCY, 64, 1, 10_000),
    pollMs: int('CALLBACK_POLL_MS', env.CALLBACK_POLL_MS, 1000, 10, 60_000),
    retentionS,
    retentionIntervalS: int(
      'CALLBACK_RETENTION_INTERVAL_S',
      env.CALLBACK_RETENTION_INTERVAL_S,
      3600,
      0,
      86_400,
    ),
  };
}

function loadTlsConfig(env: NodeJS.ProcessEnv, flags: ConfigOverrides): TlsConfig | undefined {
  const cert = flags.tlsCert ?? (env.TLS_CERT_FILE || undefined);
  const key = flags.tlsKey ?? (env.TLS_KEY_FILE || undefined);
  const ca = flags.clientCa ?? (env.TLS_CLIENT_CA_FILE || undefined);
  if (!cert && !key && !ca) return undefined;
  if (!cert) throw new ConfigError('--tls-cert', 'is required with --tls-key or --client-ca');
  if (!key) throw new ConfigError('--tls-key', 'is required with --tls-cert');
  return { certFile: resolve(cert), keyFile: resolve(key), clientCaFile: ca ? resolve(ca) : undefined };
}

/** Validates the settings; throws {@link ConfigError} on the first bad one. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: ConfigOverrides = {}): Config {
  const logLevel = choiceSetting('LOG_LEVEL', env.LOG_LEVEL, LOG_LEVELS, 'info');
  const dataDirRaw = flags.dataDir ?? env.BOOKIE_DATA_DIR ?? './.bookie';
  if (dataDirRaw === '') throw new ConfigError('--data-dir', 'must not be empty');
  const adminToken = readSetting(
    'BOOKIE_ADMIN_TOKEN',
    Type.String({ minLength: 16 }),
    env.BOOKIE_ADMIN_TOKEN,
    'at least 16 characters',
    { secret: true },
  );
  // an explicit --data-dir asks for the embedded database even when DATABASE_URL is set
  const urlRaw = flags.dbUrl ?? (flags.dataDir !== undefined ? undefined : env.DATABASE_URL);
  return {
    environment: loadEnvironment(env),
    port: int(flags.port !== undefined ? '--port' : 'PORT', flags.port ?? env.PORT, 8080, 0, 65535),
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    databaseUrl: postgresUrl(flags.dbUrl !== undefined ? '--db-url' : 'DATABASE_URL', urlRaw),
    dataDir: dataDirRaw === 'memory' ? undefined : resolve(dataDirRaw),
    dbPoolSize: int('DB_POOL_SIZE', env.DB_POOL_SIZE, 10, 1, 1000),
    dbPreparedStatements: int('DB_PREPARED_STATEMENTS', env.DB_PREPARED_STATEMENTS, 1, 0, 1) === 1,
    dbPipeline: int('DB_PIPELINE', env.DB_PIPELINE, 1, 0, 1) === 1,
    logLevel,
    adminToken,
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, 0, 600_000),
    feed: {
      logRetentionS: int('FEED_LOG_RETENTION_S', env.FEED_LOG_RETENTION_S, 259_200, 1, 3_650 * 86_400),
      snapshotRetentionS: int(
        'FEED_SNAPSHOT_RETENTION_S',
        env.FEED_SNAPSHOT_RETENTION_S,
        432_000,
        1,
        3_650 * 86_400,
      ),
      retentionIntervalS: int('FEED_RETENTION_INTERVAL_S', env.FEED_RETENTION_INTERVAL_S, 3600, 0, 86_400),
      connectionBufferBytes: int(
        'FEED_CONNECTION_BUFFER_BYTES',
        env.FEED_CONNECTION_BUFFER_BYTES,
        1024 * 1024,
        1024,
        1024 * 1024 * 1024,
      ),
      streamRecheckMs: int('FEED_STREAM_RECHECK_MS', env.FEED_STREAM_RECHECK_MS, 5000, 0, 3_600_000),
    },
    tls: loadTlsConfig(env, flags),
    callbacks: loadCallbackConfig(env),
    bets: loadBetsConfig(env),
    risk: loadRiskConfig(env),
    auth: loadAuthConfig(env),
    frame: {
      heartbeatIntervalS: int('HEARTBEAT_INTERVAL_S', env.HEARTBEAT_INTERVAL_S, 30, 0, 3600),
      bannerCacheS: int('BANNER_CACHE_S', env.BANNER_CACHE_S, 60, 0, 86_400),
    },
    scaleOut: loadScaleOutConfig(env, flags, urlRaw),
    settlement: loadSettlementConfig(env),
  };
}

/** Reads the {@link SettlementConfig} settings from the environment. */
export function loadSettlementConfig(env: NodeJS.ProcessEnv): SettlementConfig {
  return {
    pageSize: int('SETTLEMENT_PAGE_SIZE', env.SETTLEMENT_PAGE_SIZE, 1000, 1, 10_000),
    pagesInFlight: int('SETTLEMENT_PAGES_IN_FLIGHT', env.SETTLEMENT_PAGES_IN_FLIGHT, 2, 1, 8),
    leaseTtlMs: int('SETTLEMENT_LEASE_TTL_MS', env.SETTLEMENT_LEASE_TTL_MS, 15_000, 1000, 600_000),
    sweepIntervalMs: int('SETTLEMENT_SWEEP_MS', env.SETTLEMENT_SWEEP_MS, 2000, 0, 3_600_000),
    quarantineAfter: int('SETTLEMENT_QUARANTINE_AFTER', env.SETTLEMENT_QUARANTINE_AFTER, 5, 1, 100),
  };
}

/** The scale-out settings; a feed role needs Postgres (the embedded database is single-process). */
export function loadScaleOutConfig(
  env: NodeJS.ProcessEnv,
  flags: ConfigOverrides,
  databaseUrl: string | undefined,
): ScaleOutConfig {
  const setting = flags.role !== undefined ? '--role' : 'BOOKIE_ROLE';
  const role = flags.role ?? env.BOOKIE_ROLE ?? 'all';
  if (role !== 'all' && role !== 'feed')
    throw new ConfigError(setting, `expected all or feed, got "${role}"`);
  if (role === 'feed' && !databaseUrl) {
    throw new ConfigError(
      setting,
      'a feed node needs Postgres (--db-url naming a streaming replica); the embedded database is single-process',
    );
  }
  const metricsPort = env.METRICS_PORT ? int('METRICS_PORT', env.METRICS_PORT, 0, 1, 65535) : undefined;
  return {
    role,
    leaderLeaseMs: int('LEADER_LEASE_MS', env.LEADER_LEASE_MS, 15_000, 300, 600_000),
    doorbell: int('DOORBELL', env.DOORBELL, 1, 0, 1) === 1,
    metricsPort,
  };
}
