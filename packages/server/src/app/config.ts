import { resolve } from 'node:path';

/**
 * The server's settings, validated once at start. Every value comes from a CLI flag or an environment
 * variable (flags win); a bad or missing value is a {@link ConfigError} naming the setting.
 */
export interface Config {
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
  /** pino log level (`LOG_LEVEL`; default info). */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Operator token for the admin and trading APIs (`BOOKIE_ADMIN_TOKEN`); admin routes are closed without it. */
  adminToken: string | undefined;
  /** How long graceful shutdown may wait for in-flight work, in ms (`SHUTDOWN_TIMEOUT_MS`; default 10000). */
  shutdownTimeoutMs: number;
}

/** A setting that is missing or malformed. `setting` names it as the operator writes it. */
export class ConfigError extends Error {
  constructor(
    public readonly setting: string,
    message: string,
  ) {
    super(`invalid setting ${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** Values given on the command line; they override the environment. */
export interface ConfigOverrides {
  port?: string | undefined;
  dbUrl?: string | undefined;
  dataDir?: string | undefined;
  host?: string | undefined;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function int(setting: string, raw: string | undefined, def: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw)) throw new ConfigError(setting, `expected a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(setting, `expected ${min}..${max}, got ${raw}`);
  return n;
}

function postgresUrl(setting: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(setting, `not a URL: "${raw}"`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(setting, `expected a postgres:// URL, got "${url.protocol}"`);
  }
  return raw;
}

/** Validates the settings; throws {@link ConfigError} on the first bad one. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: ConfigOverrides = {}): Config {
  const logLevel = (env.LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const dataDirRaw = flags.dataDir ?? env.BOOKIE_DATA_DIR ?? './.bookie';
  if (dataDirRaw === '') throw new ConfigError('--data-dir', 'must not be empty');
  const adminToken = env.BOOKIE_ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) {
    throw new ConfigError('BOOKIE_ADMIN_TOKEN', 'must be at least 16 characters');
  }
  // an explicit --data-dir asks for the embedded database even when DATABASE_URL is set
  const urlRaw = flags.dbUrl ?? (flags.dataDir !== undefined ? undefined : env.DATABASE_URL);
  return {
    port: int(flags.port !== undefined ? '--port' : 'PORT', flags.port ?? env.PORT, 8080, 0, 65535),
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    databaseUrl: postgresUrl(flags.dbUrl !== undefined ? '--db-url' : 'DATABASE_URL', urlRaw),
    dataDir: dataDirRaw === 'memory' ? undefined : resolve(dataDirRaw),
    dbPoolSize: int('DB_POOL_SIZE', env.DB_POOL_SIZE, 10, 1, 1000),
    logLevel,
    adminToken,
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 10_000, 0, 600_000),
  };
}
