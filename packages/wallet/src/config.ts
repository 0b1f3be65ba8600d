/**
 * Settings of `bookie-wallet start`: flags over environment, validated once by the loader `bookie` uses too
 * (`@bookie/process`: env-schema on TypeBox schemas); a bad value is a {@link ConfigError} (the CLI prints one line
 * and exits 2, like `bookie`). The wallet reads `WALLET_*` variables, not Bookie's
 * (`DATABASE_URL`, `PORT`), so both can run from one shell without sharing a database.
 *
 * @packageDocumentation
 */
import {
  ConfigError,
  intSetting,
  postgresUrlSetting,
  shareSetting as rate,
  readSetting,
} from '@bookie/process';
import type { DatabaseTarget } from '@bookie/storage';
import { Type } from '@sinclair/typebox';
import { type FaultConfig, NO_FAULTS } from './http/faults.js';

export { ConfigError };

/** The wallet's settings. */
export interface WalletConfig {
  port: number;
  host: string;
  database: DatabaseTarget;
  /** Signing secrets (`whsec_…`, DECISIONS D11); empty turns verification off. */
  secrets: string[];
  /** The one currency of every session, when the operator declares it; none by default (never guessed). */
  defaultCurrency: string | undefined;
  adminToken: string | undefined;
  faults: FaultConfig;
  logLevel: string;
  shutdownTimeoutMs: number;
}

/** Flags of `bookie-wallet start` (commander's camel-cased names). */
export interface WalletFlags {
  port?: string;
  host?: string;
  dbUrl?: string;
  dataDir?: string;
  secret?: string;
  currency?: string;
  adminToken?: string;
  failRate?: string;
  lostAnswerRate?: string;
  dropRate?: string;
  delayRate?: string;
  delayMs?: string;
  createdRate?: string;
  faultSeed?: string;
}

/** The database named by `--db-url` / `WALLET_DATABASE_URL` or `--data-dir` / `WALLET_DATA_DIR` (flags win). */
export function databaseTarget(
  env: NodeJS.ProcessEnv,
  flags: { dbUrl?: string; dataDir?: string },
): DatabaseTarget {
  if (flags.dataDir) return { dataDir: flags.dataDir === 'memory' ? undefined : flags.dataDir };
  const url = postgresUrlSetting('WALLET_DATABASE_URL', flags.dbUrl ?? env.WALLET_DATABASE_URL);
  if (url) return { url, poolSize: 10 };
  const dir = env.WALLET_DATA_DIR ?? './.bookie-wallet';
  return { dataDir: dir === 'memory' ? undefined : dir };
}

/** A whole number in [min, max], `undefined` when absent. */
function int(name: string, v: string | undefined, min: number, max: number): number | undefined {
  return v === undefined || v === '' ? undefined : intSetting(name, v, min, min, max);
}

/**
 * Builds the settings from the environment and flags.
 *
 * @throws ConfigError naming the bad setting.
 */
export function loadWalletConfig(env: NodeJS.ProcessEnv, flags: WalletFlags = {}): WalletConfig {
  const port = int('WALLET_PORT', flags.port ?? env.WALLET_PORT, 0, 65535) ?? 8090;
  const secretText = flags.secret ?? env.WALLET_SIGNING_SECRET ?? '';
  const secrets = secretText
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const secret = Type.String({ pattern: '^(whsec_)?[A-Za-z0-9+/]+=*$' });
  for (const s of secrets)
    readSetting('WALLET_SIGNING_SECRET', secret, s, 'whsec_<base64>', { secret: true });
  const defaultCurrency = readSetting(
    'WALLET_CURRENCY',
    Type.String({ pattern: '^[A-Z][A-Z0-9]{2,9}$' }),
    flags.currency ?? env.WALLET_CURRENCY,
    'a currency code like EUR',
  );
  const faults: FaultConfig = { ...NO_FAULTS, seed: Math.floor(Math.random() * 2 ** 31) };
  const set = <K extends keyof FaultConfig>(k: K, v: FaultConfig[K] | undefined) => {
    if (v !== undefined) faults[k] = v;
  };
  set('error500Rate', rate('--fail-rate', flags.failRate));
  set('lostAnswerRate', rate('--lost-answer-rate', flags.lostAnswerRate));
  set('dropRate', rate('--drop-rate', flags.dropRate));
  set('delayRate', rate('--delay-rate', flags.delayRate));
  set('delayMs', int('--delay-ms', flags.delayMs, 0, 600_000));
  set('created201Rate', rate('--created-rate', flags.createdRate));
  set('seed', int('--fault-seed', flags.faultSeed, 0, 2 ** 31 - 1));
  if (flags.delayMs !== undefined && flags.delayRate === undefined) faults.delayRate = 1;
  return {
    port,
    host: flags.host ?? env.WALLET_HOST ?? '127.0.0.1',
    database: databaseTarget(env, flags),
    secrets,
    defaultCurrency,
    adminToken: flags.adminToken ?? env.WALLET_ADMIN_TOKEN ?? undefined,
    faults,
    logLevel: env.LOG_LEVEL ?? 'info',
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', env.SHUTDOWN_TIMEOUT_MS, 0, 600_000) ?? 10_000,
  };
}
