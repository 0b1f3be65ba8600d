/**
 * Child processes for end-to-end tests and benches: a service started until it prints that it listens, and a
 * command run to completion. A service started here stops when the process that started it goes, however it goes:
 * it gets `BOOKIE_EXIT_WITH_PARENT=1` and a stdin pipe that only closes with its parent (see {@link stopGracefully}),
 * and it is killed when its parent exits normally.
 *
 * @packageDocumentation
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { EXIT_WITH_PARENT_ENV } from './stop-gracefully.js';

/** A service started by {@link startListening}. */
export interface ListeningProcess {
  child: ChildProcess;
  /** The URL it printed, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** What it wrote to stdout and stderr so far (the last million characters). */
  output(): string;
  /** Sends a signal (default SIGTERM) unless it has exited; resolves to the exit code (or the signal name). */
  kill(signal?: NodeJS.Signals): Promise<number | string>;
  /** Resolves when the process exits, to its exit code (or the signal name). */
  exited: Promise<number | string>;
}

/** Options of {@link startListening}. */
export interface StartListeningOptions {
  /** What it is, for error messages (e.g. `bookie`). */
  name: string;
  /** Arguments of `node` (the script and its own arguments). */
  args: string[];
  /** Its environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** The output that says it listens; group 1 is the URL. */
  listening: RegExp;
  /** How long to wait for `listening`, ms. */
  timeoutMs: number;
}

/** The output {@link ListeningProcess.output} keeps: its last million characters (a long run logs a lot). */
const OUTPUT_KEPT = 1_000_000;

const running = new Set<ChildProcess>();
let reaperInstalled = false;

/** Kills what is still running when this process exits (a normal exit; a killed parent closes the stdin pipes). */
function track(child: ChildProcess): void {
  if (!reaperInstalled) {
    reaperInstalled = true;
    process.on('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
  running.add(child);
  child.on('exit', () => running.delete(child));
}

/**
 * Starts `node <args>` and resolves once its output matches `listening`.
 *
 * @throws Error with the process's output when it exits first or does not listen within `timeoutMs` (it is killed).
 */
export async function startListening(options: StartListeningOptions): Promise<ListeningProcess> {
  const child = spawn(process.execPath, options.args, {
    env: { ...(options.env ?? process.env), [EXIT_WITH_PARENT_ENV]: '1' },
    // stdin stays an open pipe, never written: it closes when this process goes
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  track(child);
  let out = '';
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} did not start in time:\n${out}`));
    }, options.timeoutMs);
    let found = false;
    const onData = (d: Buffer) => {
      out = (out + d.toString()).slice(-OUTPUT_KEPT);
      if (found) return;
      const m = options.listening.exec(out);
      if (m?.[1]) {
        found = true;
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited with ${code} before listening:\n${out}`));
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

/** Runs `node <args>` to completion, with `input` on its stdin; resolves to its exit code and output. */
export function runToCompletion(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    track(child);
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
    child.stdin.end(options.input ?? '');
  });
}
