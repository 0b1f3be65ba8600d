import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');

/** A `bookie` process started by a test. */
export interface BookieProcess {
  child: ChildProcess;
  /** Base URL once it listens (for `start`). */
  url: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Sends a signal and resolves to the exit code (or the signal name). */
  kill(signal?: NodeJS.Signals): Promise<number | string>;
  /** Resolves when the process exits. */
  exited: Promise<number | string>;
}

/** Runs `bookie <args>` to completion; resolves to its exit code and output. */
export function runBookie(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
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
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * Starts `bookie start --port 0 <args>` and waits until it logs its URL.
 * Defaults to an in-memory PGlite unless `args` or `env` name a database.
 */
export async function startBookie(
  args: string[] = [],
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<BookieProcess> {
  const hasDb = args.includes('--db-url') || args.includes('--data-dir') || !!opts.env?.DATABASE_URL;
  const full = [
    ...(opts.nodeArgs ?? []),
    '--import',
    'tsx',
    MAIN,
    'start',
    '--port',
    '0',
    ...(hasDb ? [] : ['--data-dir', 'memory']),
    ...args,
  ];
  const child = spawn(process.execPath, full, {
    env: { ...process.env, LOG_LEVEL: 'info', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bookie did not start in time:\n${out}`));
    }, opts.timeoutMs ?? 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /bookie listening on (http:\/\/[^"\s]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`bookie exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    child,
    url,
    output: () => out,
    exited,
    kill(signal = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}
