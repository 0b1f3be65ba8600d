import { dirname, join } from 'node:path';
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
