/**
 * Starts the reference wallet as a real child process for end-to-end tests (the placement e2e tests use it as the
 * partner's callback server). Import from `@bookie/wallet/testing/process`.
 *
 * @packageDocumentation
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');

/** A wallet process started by a test. */
export interface WalletProcess {
  child: ChildProcess;
  /** Base URL, e.g. `http://127.0.0.1:41234`: use it as the white label's callback URL. */
  url: string;
  /** Everything it wrote so far. */
  output(): string;
  /** Sends a signal (default SIGTERM) and resolves to the exit code (or the signal name). */
  kill(signal?: NodeJS.Signals): Promise<number | string>;
  /** Resolves when the process exits. */
  exited: Promise<number | string>;
}

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
  const args = ['--import', 'tsx', MAIN, 'start', '--port', '0'];
  if (options.dbUrl) args.push('--db-url', options.dbUrl);
  else args.push('--data-dir', options.dataDir ?? 'memory');
  const secrets = typeof options.secret === 'string' ? [options.secret] : (options.secret ?? []);
  if (secrets.length) args.push('--secret', secrets.join(','));
  args.push(...(options.args ?? []));
  const child = spawn(process.execPath, args, {
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bookie-wallet did not start in time:\n${out}`));
    }, options.timeoutMs ?? 30_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /bookie-wallet listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`bookie-wallet exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    child,
    url,
    output: () => out,
    exited,
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs `bookie-wallet <args>` to completion. */
export function runWalletCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
