/**
 * FeedReplica: a partner's (and Bookie's own) copy of the book, kept by the client procedure of the feed contract:
 * 1. GET /all, keep every snapshot and Last-Version; 2. GET /log from the saved version, apply each line in order;
 * 3. save v with the state; after a restart go on at step 2; 4. on 409, start again at step 1.
 *
 * @packageDocumentation
 */
import { EventEmitter } from 'node:events';
import type { LogEntry, Odd, SportEvent } from '@bookie/contracts';
import { Agent, type Dispatcher, request } from 'undici';
import { applyChanges } from './changes.js';
import { LineSplitter } from './lines.js';
import {
  FeedConflictError,
  FeedHttpError,
  type FeedReplicaEvents,
  type FeedReplicaOptions,
} from './replica-types.js';
import { MemoryReplicaStore, parseState, type ReplicaStore, serialiseState } from './stores.js';

export * from './replica-types.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/**
 * A replica of the trading feed (the feed contract). Connected to a feed URL it runs the client procedure by itself
 * ({@link FeedReplica.start}); without one, its owner feeds it (the server's in-process catalog).
 *
 * Guarantees: entries apply in order; an entry at or below the applied version is skipped (versions compared as
 * BigInt, the feed versions rule); the version is persisted only together with the state; a 409 resyncs into a staging copy
 * that is swapped in whole; two missed heartbeats reconnect; reconnects back off with jitter; repeated 409s are
 * slowed down. While disconnected, {@link FeedReplica.isBettingAllowed} answers false.
 */
export class FeedReplica extends EventEmitter<FeedReplicaEvents> {
  private events = new Map<string, SportEvent>();
  /** The applied version as a number while it is a safe integer (fast exact comparisons), else NaN. */
  private appliedNum = Number.NaN;
  /** The applied version as a BigInt: authoritative beyond 2^53, else a cache of `appliedNum`. */
  private appliedBig: bigint | undefined;
  private hasApplied = false;
  /** Which entry events have listeners (EventEmitter.listenerCount per entry is measurably slow). */
  private readonly listening = { match_new: false, match_update: false, bet_rollback: false };
  private isConnected = false;
  private dirty = false;
  private running: Promise<void> | undefined;
  private stopController = new AbortController();
  private streamController: AbortController | undefined;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private readonly ownDispatcher: Dispatcher | undefined;
  private readonly dispatcher: Dispatcher | undefined;
  private readonly store: ReplicaStore;
  private readonly conflicts: number[] = [];
  private saving: Promise<void> = Promise.resolve();
  private readonly opts: Required<
    Pick<FeedReplicaOptions, 'heartbeatIntervalS' | 'missedHeartbeats' | 'checkpointIntervalMs'>
  > & {
    backoffInitialMs: number;
    backoffMaxMs: number;
    conflictMax: number;
    conflictWindowMs: number;
  };

  constructor(private readonly options: FeedReplicaOptions = {}) {
    super();
    const isEntryEvent = (name: string | symbol): name is keyof FeedReplica['listening'] =>
      name === 'match_new' || name === 'match_update' || name === 'bet_rollback';
    (this as EventEmitter).on('newListener', (name: string | symbol) => {
      if (isEntryEvent(name)) this.listening[name] = true;
    });
    (this as EventEmitter).on('removeListener', (name: string | symbol) => {
      if (isEntryEvent(name)) this.listening[name] = this.listenerCount(name) > 0;
    });
    this.store = options.store ?? new MemoryReplicaStore();
    this.opts = {
      heartbeatIntervalS: options.heartbeatIntervalS ?? 5,
      missedHeartbeats: options.missedHeartbeats ?? 2,
      checkpointIntervalMs: options.checkpointIntervalMs ?? 5000,
      backoffInitialMs: options.backoff?.initialMs ?? 250,
      backoffMaxMs: options.backoff?.maxMs ?? 30_000,
      conflictMax: options.conflictGuard?.max ?? 3,
      conflictWindowMs: options.conflictGuard?.windowMs ?? 60_000,
    };
    if (options.dispatcher) this.dispatcher = options.dispatcher;
    else if (options.tls) {
      this.ownDispatcher = new Agent({ connect: { ...options.tls } });
      this.dispatcher = this.ownDispatcher;
    }
  }

  // ------------------------------------------------------------------------------------------------ reading

  /** The version of the last applied entry (or of the last full sync); undefined before the first sync. */
  get version(): bigint | undefined {
    if (!this.hasApplied) return undefined;
    this.appliedBig ??= BigInt(this.appliedNum);
    return this.appliedBig;
  }

  private get applied(): bigint | undefined {
    return this.version;
  }

  private set applied(v: bigint | undefined) {
    this.hasApplied = v !== undefined;
    this.appliedBig = v;
    this.appliedNum = v !== undefined && v <= MAX_SAFE ? Number(v) : Number.NaN;
  }

  /** True while the log stream is open and healthy (heartbeats arrive). */
  get connected(): boolean {
    return this.isConnected;
  }

  /** Number of sport events held. */
  get size(): number {
    return this.events.size;
  }

  /** The snapshot of one event (the live object: do not modify it), or undefined. */
  getEvent(id: string): SportEvent | undefined {
    return this.events.get(id);
  }

  /** Every snapshot held (live objects). */
  allEvents(): IterableIterator<SportEvent> {
    return this.events.values();
  }

  /** Every snapshot, ordered by id: the form `/all` is compared with. */
  toJSON(): SportEvent[] {
    return [...this.events.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The current odd of a selection (value is a 12-decimal string), or undefined. */
  getOdd(eventId: string, marketId: string, oddId: string): Odd | undefined {
    const e = this.events.get(eventId);
    if (!e) return undefined;
    const m = Object.hasOwn(e.markets, marketId) ? e.markets[marketId] : undefined;
    if (!m) return undefined;
    return Object.hasOwn(m.odds, oddId) ? m.odds[oddId] : undefined;
  }

  /**
   * The rule for accepting bets (the feed contract, without managed trading): fixture status 0 or 1, bet stop off, market
   * status 0, odd status 0 and `is_active`. False for anything unknown, and false while disconnected.
   */
  isBettingAllowed(eventId: string, marketId: string, oddId: string): boolean {
    if (!this.isConnected) return false;
    const e = this.events.get(eventId);
    if (!e || e.bet_stop) return false;
    const fs = e.fixture?.status;
    if (fs !== 0 && fs !== 1) return false;
    const m = Object.hasOwn(e.markets, marketId) ? e.markets[marketId] : undefined;
    if (!m || m.status !== 0) return false;
    const o = Object.hasOwn(m.odds, oddId) ? m.odds[oddId] : undefined;
    return !!o && o.status === 0 && o.is_active === true;
  }

  // ------------------------------------------------------------------------------------------- applying

  /**
   * Replaces the whole state (step 1 of the procedure): `events` at `version`.
   */
  reset(events: Iterable<SportEvent>, version: bigint): void {
    const next = new Map<string, SportEvent>();
    for (const e of events) next.set(e.id, e);
    this.events = next;
    this.applied = version;
    this.dirty = true;
  }

  /**
   * Applies one line of `/log` (step 2): an entry at or below the applied version is skipped; a heartbeat is
   * ignored. Returns whether the line was applied.
   * @throws SyntaxError for a line that is not JSON.
   */
  applyLine(line: string): boolean {
    const entry = JSON.parse(line) as LogEntry | { type: 'heartbeat' };
    if (entry.type === 'heartbeat') return false;
    return this.applyEntry(entry as LogEntry);
  }

  /** Applies one parsed log entry; see {@link FeedReplica.applyLine}. */
  applyEntry(entry: LogEntry): boolean {
    // exact integer comparison (the feed versions rule): as numbers while both are safe integers, as BigInt beyond 2^53
    const n = Number(entry.v);
    if (Number.isSafeInteger(n) && (!this.hasApplied || !Number.isNaN(this.appliedNum))) {
      if (n <= this.appliedNum) return false;
      this.hasApplied = true;
      this.appliedNum = n;
      this.appliedBig = undefined;
    } else {
      const v = BigInt(entry.v);
      if (this.hasApplied && v <= this.version!) return false;
      this.applied = v;
    }
    switch (entry.type) {
      case 'match_new': {
        this.events.set(entry.sport_event.id, entry.sport_event);
        this.dirty = true;
        if (this.listening.match_new) this.emit('match_new', entry, entry.sport_event);
        break;
      }
      case 'match_update': {
        const e = this.events.get(entry.sport_event_id);
        if (e) applyChanges(e as unknown as Record<string, unknown>, entry.changes, false);
        this.dirty = true;
        if (this.listening.match_update) this.emit('match_update', entry, e);
        break;
      }
      case 'bet_rollback': {
        this.dirty = true;
        if (this.listening.bet_rollback) this.emit('bet_rollback', entry);
        break;
      }
      default:
        // an entry type this SDK does not know: its version counts, so the stream goes on
        this.dirty = true;
    }
    return true;
  }

  /** Marks the replica connected or not (for an in-process owner; the HTTP loop sets it itself). */
  setConnected(connected: boolean, reason = 'stopped'): void {
    if (connected === this.isConnected) return;
    this.isConnected = connected;
    if (connected) this.emit('connected');
    else this.emit('disconnected', reason);
  }

  // --------------------------------------------------------------------------------------- persistence

  /** Loads the saved state, if any; returns its version. */
  async load(): Promise<bigint | undefined> {
    const data = await this.store.load();
    if (data === undefined) return undefined;
    const s = parseState(data);
    this.reset(s.events, s.version);
    this.dirty = false;
    return s.version;
  }

  /** Saves state and version together, now (no-op when nothing changed since the last save). */
  checkpoint(force = false): Promise<void> {
    if ((!this.dirty && !force) || this.applied === undefined) return this.saving;
    // serialised synchronously: the text holds exactly the state at `applied`
    const data = serialiseState(this.applied, this.events.values());
    this.dirty = false;
    this.saving = this.saving
      .then(() => this.store.save(data))
      .catch((err) => {
        this.dirty = true;
        this.emit('warning', err);
      });
    return this.saving;
  }

  // -------------------------------------------------------------------------------------- the procedure

  /**
   * Starts following `baseUrl`: loads the saved state (step 3), else runs a full sync (step 1), then follows
   * `/log` (step 2), resyncing on 409 (step 4). Resolves once the loop runs; see the `caught_up` event and
   * {@link FeedReplica.waitFor}.
   * @throws Error when no `baseUrl` was given.
   */
  async start(): Promise<void> {
    if (!this.options.baseUrl) throw new Error('FeedReplica.start needs a baseUrl');
    if (this.running) return;
    this.stopController = new AbortController();
    await this.load();
    if (this.opts.checkpointIntervalMs > 0) {
      this.checkpointTimer = setInterval(() => void this.checkpoint(), this.opts.checkpointIntervalMs);
      this.checkpointTimer.unref();
    }
    this.running = this.loop();
  }

  /** Stops following, closes the stream and saves the state. */
  async stop(): Promise<void> {
    this.stopController.abort();
    this.streamController?.abort();
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    this.checkpointTimer = undefined;
    await this.running;
    this.running = undefined;
    this.setConnected(false, 'stopped');
    await this.checkpoint();
    await this.ownDispatcher?.close();
  }

  /** Resolves when the applied version reaches `version` (rejects after `timeoutMs`). */
  waitFor(version: bigint, timeoutMs = 10_000): Promise<void> {
    if (this.applied !== undefined && this.applied >= version) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.applied !== undefined && this.applied >= version) {
          cleanup();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`feed replica: version ${version} not reached (at ${this.applied})`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.off('match_new', check);
        this.off('match_update', check);
        this.off('bet_rollback', check);
        this.off('resync', check);
        this.off('caught_up', check);
      };
      this.on('match_new', check);
      this.on('match_update', check);
      this.on('bet_rollback', check);
      this.on('resync', check);
      this.on('caught_up', check);
    });
  }

  private async loop(): Promise<void> {
    const stop = this.stopController.signal;
    let failures = 0;
    while (!stop.aborted) {
      let progressed = false;
      try {
        if (this.applied === undefined) await this.resync();
        progressed = await this.follow();
      } catch (err) {
        if (stop.aborted) break;
        if (err instanceof FeedConflictError) {
          // step 4: full resync; the current state stays readable until the new one is swapped in
          this.applied = undefined;
          const now = Date.now();
          this.conflicts.push(now);
          while (this.conflicts.length > 0 && now - this.conflicts[0]! > this.opts.conflictWindowMs) {
            this.conflicts.shift();
          }
          this.emit('warning', err);
          if (this.conflicts.length > this.opts.conflictMax)
            await sleep(this.jitter(this.opts.backoffMaxMs), stop);
          continue;
        }
        this.emit('warning', err);
      } finally {
        this.setConnected(false, 'stream ended');
      }
      if (stop.aborted) break;
      failures = progressed ? 0 : failures + 1;
      const base = Math.min(this.opts.backoffMaxMs, this.opts.backoffInitialMs * 2 ** Math.min(failures, 16));
      await sleep(this.jitter(base), stop);
    }
  }

  private jitter(ms: number): number {
    return Math.round(ms * (0.5 + Math.random()));
  }

  private async headers(): Promise<Record<string, string>> {
    const h: Record<string, string> = {};
    if (this.options.token) h.authorization = `Bearer ${await this.options.token()}`;
    return h;
  }

  private url(path: string): string {
    return `${this.options.baseUrl!.replace(/\/+$/, '')}${path}`;
  }

  /** A controller for the next request, aborted by {@link FeedReplica.stop} even if stop came first. */
  private newStreamController(): AbortController {
    const controller = new AbortController();
    this.streamController = controller;
    const stop = this.stopController.signal;
    if (stop.aborted) controller.abort();
    else stop.addEventListener('abort', () => controller.abort(), { once: true });
    return controller;
  }

  /** Step 1: GET /all into a staging copy, then swap it in and save it. */
  private async resync(): Promise<void> {
    const controller = this.newStreamController();
    const res = await request(this.url('/all'), {
      method: 'GET',
      headers: await this.headers(),
      signal: controller.signal,
      ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
    });
    if (res.statusCode !== 200) {
      throw new FeedHttpError(res.statusCode, await res.body.text(), '/all');
    }
    const lv = res.headers['last-version'];
    if (typeof lv !== 'string' || !/^\d+$/.test(lv)) {
      await res.body.dump();
      throw new FeedHttpError(200, `bad Last-Version header "${String(lv)}"`, '/all');
    }
    const staging = new Map<string, SportEvent>();
    const splitter = new LineSplitter((line) => {
      const e = JSON.parse(line) as SportEvent;
      staging.set(e.id, e);
    });
    for await (const chunk of res.body) splitter.push(chunk as Buffer);
    if (splitter.bufferedBytes > 0) throw new FeedHttpError(200, 'truncated body', '/all');
    this.events = staging;
    this.applied = BigInt(lv);
    await this.checkpoint(true);
    this.emit('resync', this.applied);
  }

  /**
   * Step 2: GET /log from the applied version; applies lines until the stream ends, fails, or the watchdog gives
   * up. Returns whether it got a 200 (progress, for the backoff).
   */
  private async follow(): Promise<boolean> {
    const from = this.applied!;
    const controller = this.newStreamController();
    const hb = this.opts.heartbeatIntervalS;
    const res = await request(this.url(`/log?heartbeat_interval=${hb}`), {
      method: 'GET',
      headers: { ...(await this.headers()), 'last-version': from.toString() },
      signal: controller.signal,
      bodyTimeout: 0,
      ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
    });
    if (res.statusCode === 409) {
      await res.body.dump();
      throw new FeedConflictError(from);
    }
    if (res.statusCode !== 200) throw new FeedHttpError(res.statusCode, await res.body.text(), '/log');
    this.setConnected(true);
    let lastSeen = Date.now();
    let watchdogFired = false;
    const limitMs = hb * 1000 * this.opts.missedHeartbeats + 500;
    const watchdog = setInterval(
      () => {
        if (Date.now() - lastSeen > limitMs) {
          watchdogFired = true;
          controller.abort();
        }
      },
      Math.max(100, Math.floor((hb * 1000) / 4)),
    );
    let caughtUp = false;
    const splitter = new LineSplitter((line) => {
      const entry = JSON.parse(line) as LogEntry | { type: 'heartbeat' };
      if (entry.type === 'heartbeat') {
        if (!caughtUp) {
          caughtUp = true;
          this.emit('caught_up', this.applied!);
        }
        return;
      }
      this.applyEntry(entry as LogEntry);
    });
    try {
      for await (const chunk of res.body) {
        lastSeen = Date.now();
        splitter.push(chunk as Buffer);
      }
      this.emit('warning', new Error('feed: /log stream ended'));
    } catch (err) {
      if (!this.stopController.signal.aborted) {
        this.emit('warning', watchdogFired ? new Error('feed: heartbeats missed, reconnecting') : err);
      }
    } finally {
      clearInterval(watchdog);
    }
    return true;
  }
}
