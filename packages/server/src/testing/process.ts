import type { ChildProcessByStdio, ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { entryArgs, type ListeningProcess, runToCompletion, startListening } from '@bookie/process';

/** `bookie` itself: the compiled build when fresh, else the sources under tsx (`@bookie/process` entryArgs). */
const MAIN = () => entryArgs(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));

/** A `bookie` process started by a test (it stops when the test process goes: `@bookie/process`). */
export type BookieProcess = ListeningProcess;

/** Runs `bookie <args>` to completion; resolves to its exit code and output. */
export function runBookie(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runToCompletion([...MAIN(), ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...opts.env },
    ...(opts.input !== undefined ? { input: opts.input } : {}),
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
  return startListening({
    name: 'bookie',
    args: [
      ...(opts.nodeArgs ?? []),
      ...MAIN(),
      'start',
      '--port',
      '0',
      ...(hasDb ? [] : ['--data-dir', 'memory']),
      ...args,
    ],
    env: { ...process.env, LOG_LEVEL: 'info', ...opts.env },
    listening: /bookie listening on (http:\/\/[^"\s]+)/,
    timeoutMs: opts.timeoutMs ?? 90_000,
  });
}

/** A child process's output as a test reads it: all of it so far, and a wait for a line. */
export interface WatchedOutput {
  /** Everything the child wrote to stdout and stderr so far. */
  text(): string;
  /**
   * Waits until the output matches `re` (polling every 100 ms) and returns the match.
   *
   * @throws Error with the output when `ms` pass or the child exits first.
   */
  until(re: RegExp, ms: number): Promise<RegExpExecArray>;
  /** Resolves to the child's exit code when it exits. */
  exited: Promise<number | null>;
}

/** Collects a spawned child's stdout and stderr (both piped) for a test to wait on. */
export function watchOutput(
  child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>,
): WatchedOutput {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    text: () => out,
    exited,
    async until(re, ms) {
      const end = Date.now() + ms;
      for (;;) {
        const m = re.exec(out);
        if (m) return m;
        if (Date.now() > end || child.exitCode !== null) throw new Error(`no ${re} in:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
