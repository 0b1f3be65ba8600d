/**
 * The executor: sends a script's trading commands to a running Bookie (`/trading/...`, operator token) in time
 * order, as fast as possible (`speed: 'max'`) or paced at N× real time. It knows nothing about bets: whoever drives
 * bettors or checks settlement hooks in through {@link ApplyOptions.onStep}.
 *
 * @packageDocumentation
 */
import type { SportEvent, TradingCommandResponse } from '@bookie/contracts';
import { Pool } from 'undici';
import type { ScriptStep, TradingCommand } from './season-script.js';

/** Where commands go. {@link httpTradingClient} is the real one; tests may pass their own. */
export interface TradingClient {
  /** Sends one command; resolves to the server's answer. Rejects with {@link TradingCommandError} on non-2xx. */
  send(command: TradingCommand): Promise<TradingCommandResponse>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** A trading command the server refused (or a transport failure, `status` 0). */
export class TradingCommandError extends Error {
  constructor(
    readonly command: TradingCommand,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${command.method} ${command.path} → ${status || 'network error'}: ${body.slice(0, 500)}`);
    this.name = 'TradingCommandError';
  }
}

/** Options of {@link httpTradingClient}. */
export interface HttpTradingClientOptions {
  /** Base URL of the Bookie server, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The operator token (`BOOKIE_ADMIN_TOKEN`), sent as `Authorization: Bearer …`. */
  token: string;
  /** Keep-alive connections to open at most (default 8). */
  connections?: number;
}

/** An HTTP client of the trading API, with the read route too (`GET /trading/sport-events/{id}`). */
export interface HttpTradingClient extends TradingClient {
  /** The current snapshot and version of a sport event; undefined on 400/404 (unknown event). */
  getSportEvent(id: string): Promise<{ version: string; sport_event: SportEvent } | undefined>;
}

/** A trading API client over one undici keep-alive pool. */
export function httpTradingClient(options: HttpTradingClientOptions): HttpTradingClient {
  const url = new URL(options.baseUrl);
  const prefix = url.pathname.replace(/\/$/, '');
  const pool = new Pool(url.origin, { connections: options.connections ?? 8, pipelining: 1 });
  const headers = {
    authorization: `Bearer ${options.token}`,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  return {
    async send(command) {
      let res: Awaited<ReturnType<Pool['request']>>;
      try {
        res = await pool.request({
          method: command.method,
          path: prefix + command.path,
          headers,
          body: JSON.stringify(command.body),
        });
      } catch (err) {
        throw new TradingCommandError(command, 0, (err as Error).message);
      }
      const text = await res.body.text();
      if (res.statusCode < 200 || res.statusCode > 299)
        throw new TradingCommandError(command, res.statusCode, text);
      return JSON.parse(text) as TradingCommandResponse;
    },
    async getSportEvent(id) {
      const res = await pool.request({
        method: 'GET',
        path: `${prefix}/trading/sport-events/${encodeURIComponent(id)}`,
        headers: { authorization: headers.authorization, accept: 'application/json' },
      });
      const text = await res.body.text();
      if (res.statusCode === 404 || res.statusCode === 400) return undefined;
      if (res.statusCode !== 200)
        throw new Error(`GET sport event ${id} → ${res.statusCode}: ${text.slice(0, 500)}`);
      return JSON.parse(text) as { version: string; sport_event: SportEvent };
    },
    close: () => pool.close(),
  };
}

/** `'max'`: no waiting; a number N > 0: N× real time (60 → one simulated minute per second). */
export type Speed = 'max' | number;

/** Time source and sleeper (injectable for tests). */
export interface PacingClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: PacingClock = {
  now: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Options of {@link applyScript}. */
export interface ApplyOptions {
  client: TradingClient;
  /** Default `'max'`. */
  speed?: Speed;
  /**
   * Commands in flight at once (default 1: strictly one after the other, in script order). Above 1, commands of
   * different sport events may overlap; those of one event stay in order.
   */
  concurrency?: number;
  /** With a numeric speed, the longest real wait between two commands, ms (idle simulated gaps are compressed). */
  maxWaitMs?: number;
  /** Called after each command succeeded, in completion order. */
  onStep?: (step: ScriptStep, response: TradingCommandResponse, index: number) => void | Promise<void>;
  signal?: AbortSignal;
  clock?: PacingClock;
}

/** What {@link applyScript} did. */
export interface ApplyReport {
  commands: number;
  /** Real time spent, ms. */
  elapsedMs: number;
  /** Simulated time covered, ms (last step's `at` − first step's `at`). */
  simulatedMs: number;
  /** Commands sent by step name. */
  byStep: Record<string, number>;
  /** The highest feed version the server answered. */
  lastVersion: string | undefined;
}

/**
 * Sends the steps in order (they are expected sorted by `at`, as {@link buildSeasonScript} makes them). With a
 * numeric speed, step i is sent at real time start + (at_i − at_0) / speed (waits capped by `maxWaitMs`).
 *
 * @throws TradingCommandError for the first command the server refuses (later ones are not sent); the abort
 *   reason when `signal` aborts.
 */
export async function applyScript(steps: readonly ScriptStep[], options: ApplyOptions): Promise<ApplyReport> {
  const speed = options.speed ?? 'max';
  if (speed !== 'max' && !(typeof speed === 'number' && speed > 0 && Number.isFinite(speed))) {
    throw new RangeError(`applyScript: speed must be "max" or a positive number, got ${String(speed)}`);
  }
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const clock = options.clock ?? realClock;
  const started = clock.now();
  const byStep: Record<string, number> = {};
  let lastVersion: bigint | undefined;
  let done = 0;
  let failure: unknown;
  const inFlight = new Set<Promise<void>>();
  const lastOfEvent = new Map<string, Promise<void>>();
  const first = steps[0]?.at ?? 0;
  let shift = 0; // real ms removed from the schedule by maxWaitMs

  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (failure) break;
    options.signal?.throwIfAborted();
    if (speed !== 'max') {
      const due = started + (step.at - first) / speed - shift;
      let wait = due - clock.now();
      if (options.maxWaitMs !== undefined && wait > options.maxWaitMs) {
        shift += wait - options.maxWaitMs;
        wait = options.maxWaitMs;
      }
      if (wait > 0) await clock.sleep(wait, options.signal);
    }
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    if (failure) break;
    const before = lastOfEvent.get(step.sportEventId);
    const index = i;
    const run = (async () => {
      if (before) await before;
      if (failure) return;
      try {
        const res = await options.client.send(step.command);
        const v = BigInt(res.version);
        if (lastVersion === undefined || v > lastVersion) lastVersion = v;
        byStep[step.step] = (byStep[step.step] ?? 0) + 1;
        done++;
        await options.onStep?.(step, res, index);
      } catch (err) {
        failure ??= err;
      }
    })();
    const tracked = run.finally(() => {
      inFlight.delete(tracked);
      if (lastOfEvent.get(step.sportEventId) === tracked) lastOfEvent.delete(step.sportEventId);
    });
    inFlight.add(tracked);
    lastOfEvent.set(step.sportEventId, tracked);
  }
  await Promise.all(inFlight);
  if (failure) throw failure;
  return {
    commands: done,
    elapsedMs: clock.now() - started,
    simulatedMs: steps.length > 0 ? steps[steps.length - 1]!.at - first : 0,
    byStep,
    lastVersion: lastVersion?.toString(),
  };
}
