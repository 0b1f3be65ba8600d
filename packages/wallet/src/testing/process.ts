/**
 * Starts the reference wallet as a real child process for end-to-end tests (the placement e2e tests use it as the
 * partner's callback server). Import from `@bookie/wallet/testing/process`.
 *
 * @packageDocumentation
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryArgs, type ListeningProcess, runToCompletion, startListening } from '@bookie/process';

/** `bookie-wallet` itself: the compiled build when fresh, else the sources under tsx. */
const MAIN = () => entryArgs(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));

/** A wallet process started by a test (it stops when the test process goes: `@bookie/process`). */
export type WalletProcess = ListeningProcess;

/** Options of {@link startWalletProcess}. */
export interface StartWalletOptions {
  /** Signing secret(s) (`whsec_…`, D11); none turns verification off. */
  secret?: string | string[];
  /** A Postgres URL for the wallet's database; default an in-memory PGlite. */
  dbUrl?: string;
  /** A PGlite data directory instead. */
  dataDir?: string;
  /** More `start` flags, e.g. `['--fail-rate', '0.2', '--fault-seed', '7']`. */
  args?: string[];
  /** More environment. */
  env?: NodeJS.ProcessEnv;
  /** How long to wait for the listening line (default 30 s). */
  timeoutMs?: number;
}

/**
 * Runs `bookie-wallet start --port 0` and resolves once it prints `bookie-wallet listening on <url>`.
 *
 * @throws Error with the process output when it exits or does not listen in time.
 */
export async function startWalletProcess(options: StartWalletOptions = {}): Promise<WalletProcess> {
  const args = [...MAIN(), 'start', '--port', '0'];
  if (options.dbUrl) args.push('--db-url', options.dbUrl);
  else args.push('--data-dir', options.dataDir ?? 'memory');
  const secrets = typeof options.secret === 'string' ? [options.secret] : (options.secret ?? []);
  if (secrets.length) args.push('--secret', secrets.join(','));
  args.push(...(options.args ?? []));
  return startListening({
    name: 'bookie-wallet',
    args,
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
    listening: /bookie-wallet listening on (http:\/\/\S+)/,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
}

/** Runs `bookie-wallet <args>` to completion. */
export function runWalletCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runToCompletion([...MAIN(), ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
  });
}
