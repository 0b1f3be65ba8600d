import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import { LOG_CHANNEL } from '../trading/index.js';
import { readBounds, readFloor, readLogPage } from './feed.repo.js';

/** One log entry as the fan-out holds it: version, JSON line, and the line's bytes with `\n` (serialised once). */
export interface LogItem {
  v: bigint;
  line: string;
  bytes: Buffer;
}

/**
 * Where a follower delivers entries: an HTTP response, or an in-process consumer (the catalog replica, later
 * the settlement consumer).
 */
export interface LogSink {
  /** Takes one entry; returns false when the sink's bounded buffer is full (the follower then waits). */
  write(item: LogItem): boolean;
  /**
   * Optional: takes several consecutive entries at once as their concatenated bytes (one socket write instead of
   * many); same return value as {@link LogSink.write}.
   */
  writeBatch?(bytes: Buffer, items: LogItem[]): boolean;
  /** Resolves when the sink can take entries again. */
  drained(): Promise<void>;
  /** Optional: the next writes go out together at {@link LogSink.uncork} (one socket write, no copy of the bytes). */
  cork?(): void;
  /** Optional: see {@link LogSink.cork}. */
  uncork?(): void;
  /** Called once, when the backlog is replayed and the follower switches to live (DECISIONS D25). */
  caughtUp?(): void;
  /** Called when the follower stops for good: `expired` when retention removed entries it still needed. */
  end(reason: 'closed' | 'expired' | 'error', err?: unknown): void;
}

/** Tuning of the fan-out. */
export interface LogHubOptions {
  /** Entries per database page (default 1000). */
  pageSize?: number;
  /**
   * Bytes of entries a follower reads and writes at a time while catching up, and the tailer per page (default
   * 1 MiB, the per-connection buffer of spec 02): the next chunk is read only once the sink has drained, so a reader
   * that does not read its socket holds about this much, whatever the size of the backlog.
   */
  pageBytes?: number;
  /** Most entries kept in memory for catching-up followers (default 50,000). */
  ringEntries?: number;
  /** Most bytes kept in memory for catching-up followers (default 32 MiB). */
  ringBytes?: number;
  /** Poll interval in ms, a fallback to NOTIFY (default 1000; 0 = none). */
  pollMs?: number;
  /** LISTEN for commits (default true); false on a streaming replica, which cannot LISTEN: polling only. */
  listen?: boolean;
}

/**
 * A follower of the log: reads entries after its version in pages (from the hub's memory when it has them, else
 * from the database), then follows live from the hub, with no gap and no duplicate at the switch (entries are
 * deduplicated by version). When its sink is full it leaves live delivery and catches up again once drained, so a
 * slow sink never grows memory without bound and never slows the writer or other followers.
 */
export class LogFollower {
  /** The version of the last entry delivered. */
  last: bigint;
  /** True while the hub delivers to it directly. */
  live = false;
  private closed = false;
  private caughtUpOnce = false;

  constructor(
    private readonly hub: LogHub,
    from: bigint,
    private readonly sink: LogSink,
  ) {
    this.last = from;
  }

  /** Stops following; the sink's `end('closed')` is called. */
  close(): void {
    this.stop('closed');
  }

  /** Whether the follower has stopped. */
  get isClosed(): boolean {
    return this.closed;
  }

  stop(reason: 'closed' | 'expired' | 'error', err?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.live = false;
    this.hub.detach(this);
    this.sink.end(reason, err);
  }

  /** Delivers live entries (called by the hub); drops to catching up when the sink is full. */
  deliver(items: LogItem[], batch?: () => Buffer): void {
    if (batch && this.sink.writeBatch && items.length > 1 && items[0]!.v > this.last) {
      const ok = this.sink.writeBatch(batch(), items);
      this.last = items[items.length - 1]!.v;
      if (!ok) {
        this.live = false;
        this.hub.noteSlow();
        void this.sink.drained().then(() => this.catchUp());
      }
      return;
    }
    for (const item of items) {
      if (item.v <= this.last) continue;
      const ok = this.sink.write(item);
      this.last = item.v;
      if (!ok) {
        this.live = false;
        this.hub.noteSlow();
        void this.sink.drained().then(() => this.catchUp());
        return;
      }
    }
  }

  /** Replays entries after `last` (memory, else database) until it reaches the hub's head, then goes live. */
  async catchUp(): Promise<void> {
    try {
      while (!this.closed) {
        let items: LogItem[] = this.hub.fromRing(this.last);
        if (items.length === 0 && !this.hub.ringCovers(this.last)) {
          const before = this.last;
          const rows = await readLogPage(this.hub.database.db, before, this.hub.pageSize, this.hub.pageBytes);
          // rows first, then the floor: retention that removed entries we still need shows up here (D22)
          const floor = await readFloor(this.hub.database.db);
          if (floor > before) return this.stop('expired');
          items = rows.map(toItem);
          if (items.length === 0) items = this.hub.fromRing(this.last);
        }
        if (this.closed) return;
        if (items.length === 0) {
          if (this.last >= this.hub.head) {
            this.live = true;
            this.hub.attach(this);
            if (!this.caughtUpOnce) {
              this.caughtUpOnce = true;
              this.sink.caughtUp?.();
            }
            return;
          }
          // the hub has read further than the database page showed (cannot happen in order); wait for it
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        // written in chunks of at most pageBytes; after a chunk that fills the sink, the next waits for it to drain
        let i = 0;
        while (i < items.length && !this.closed) {
          const start = i;
          const chunk: LogItem[] = [];
          let bytes = 0;
          for (; i < items.length; i++) {
            const item = items[i]!;
            if (item.v <= this.last) continue;
            if (chunk.length > 0 && bytes + item.bytes.length > this.hub.pageBytes) break;
            chunk.push(item);
            bytes += item.bytes.length;
          }
          if (chunk.length === 0) break;
          let full = false;
          if (this.sink.cork && this.sink.uncork && chunk.length > 1) {
            // the entries' own bytes, not a concatenated copy: a stalled reader holds one chunk, once
            this.sink.cork();
            let ok = true;
            for (const item of chunk) ok = this.sink.write(item);
            this.sink.uncork();
            full = !ok;
            this.last = chunk[chunk.length - 1]!.v;
          } else if (this.sink.writeBatch && chunk.length > 1) {
            full = !this.sink.writeBatch(Buffer.concat(chunk.map((c) => c.bytes)), chunk);
            this.last = chunk[chunk.length - 1]!.v;
          } else {
            for (const item of chunk) {
              const ok = this.sink.write(item);
              this.last = item.v;
              if (!ok) {
                full = true;
                i = start; // the rest of the chunk is taken again (written entries are skipped by version)
                break;
              }
            }
          }
          if (full) await this.sink.drained();
        }
      }
    } catch (err) {
      this.stop('error', err);
    }
  }
}

function toItem(r: { v: bigint; line: string }): LogItem {
  return { v: r.v, line: r.line, bytes: Buffer.from(`${r.line}\n`) };
}

/**
 * The fan-out of one server process: tails the log table, woken by `LISTEN bookie_log` (a
 * NOTIFY at every commit, from any process on the same database) or by a local poke, and delivers each entry —
 * read and serialised once — to every live follower. Keeps the most recent entries in a bounded ring for followers
 * that catch up.
 */
export class LogHub {
  /** The highest version this process has read from the log. */
  head = 0n;
  readonly pageSize: number;
  readonly pageBytes: number;
  private ring: LogItem[] = [];
  private ringStart = 0;
  private ringBytesUsed = 0;
  /** Followers at or above this version can catch up from memory. */
  private ringFloor = 0n;
  private readonly ringEntries: number;
  private readonly ringBytes: number;
  private readonly followers = new Set<LogFollower>();
  private pumping = false;
  private again = false;
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly pollMs: number;
  private readonly listens: boolean;
  /** Times a follower's buffer was full and it fell back to catching up (observability, tests). */
  slowFallbacks = 0;

  constructor(
    readonly database: Database,
    private readonly logger: Logger,
    opts: LogHubOptions = {},
  ) {
    this.pageSize = opts.pageSize ?? 1000;
    this.pageBytes = opts.pageBytes ?? 1024 * 1024;
    this.ringEntries = opts.ringEntries ?? 50_000;
    this.ringBytes = opts.ringBytes ?? 32 * 1024 * 1024;
    this.pollMs = opts.pollMs ?? 1000;
    this.listens = opts.listen ?? true;
  }

  /** Reads the head and starts listening for commits. */
  async start(): Promise<void> {
    const { head } = await readBounds(this.database.db);
    this.head = head;
    this.ringFloor = head;
    // the payload is the committed version: a commit this process already read (its own, after the local
    // poke) costs no query
    if (this.listens) {
      this.unlisten = await this.database.listen(LOG_CHANNEL, (payload) => {
        if (!/^\d+$/.test(payload) || BigInt(payload) > this.head) this.poke();
      });
    }
    if (this.pollMs > 0) {
      this.timer = setInterval(() => this.poke(), this.pollMs);
      this.timer.unref();
    }
  }

  /** Stops listening and ends every follower. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const f of [...this.followers]) f.close();
    await this.unlisten?.();
    // wait for a running pump to finish its query
    for (let i = 0; i < 200 && this.pumping; i++) await new Promise((r) => setTimeout(r, 5));
  }

  /**
   * Followers of this process (the `/log` streams and in-process followers) and how far the furthest behind is
   * from the head, in versions (metrics).
   */
  followerStats(): { count: number; maxLag: bigint } {
    let maxLag = 0n;
    for (const f of this.followers) if (this.head - f.last > maxLag) maxLag = this.head - f.last;
    return { count: this.followers.size, maxLag };
  }

  /** Wakes the tailer (after a local commit; NOTIFY does the same for every process). */
  poke(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.again = false;
        for (;;) {
          if (this.stopped) return;
          const rows = await readLogPage(this.database.db, this.head, this.pageSize, this.pageBytes);
          if (rows.length === 0) break;
          const items = rows.map(toItem);
          this.push(items);
        }
      } while (this.again);
    } catch (err) {
      if (!this.stopped) this.logger.error({ err }, 'feed: reading the log failed');
    } finally {
      this.pumping = false;
    }
  }

  private push(items: LogItem[]): void {
    for (const item of items) {
      this.ring.push(item);
      this.ringBytesUsed += item.bytes.length;
    }
    this.head = items[items.length - 1]!.v;
    while (
      this.ring.length - this.ringStart > this.ringEntries ||
      (this.ringBytesUsed > this.ringBytes && this.ring.length - this.ringStart > 1)
    ) {
      const old = this.ring[this.ringStart]!;
      this.ringBytesUsed -= old.bytes.length;
      this.ringFloor = old.v;
      this.ringStart++;
    }
    if (this.ringStart > 4096 && this.ringStart * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.ringStart);
      this.ringStart = 0;
    }
    // the page's bytes are concatenated once, lazily, and shared by every live follower
    let bytes: Buffer | undefined;
    const batch = () => {
      bytes ??= Buffer.concat(items.map((i) => i.bytes));
      return bytes;
    };
    for (const f of [...this.followers]) if (f.live) f.deliver(items, batch);
  }

  /** Whether every entry after `last` up to the head is in memory. */
  ringCovers(last: bigint): boolean {
    return last >= this.ringFloor;
  }

  /** Up to a page of in-memory entries after `last` (empty when none or not covered). */
  fromRing(last: bigint): LogItem[] {
    if (!this.ringCovers(last) || last >= this.head) return [];
    let lo = this.ringStart;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ring[mid]!.v <= last) lo = mid + 1;
      else hi = mid;
    }
    return this.ring.slice(lo, lo + this.pageSize);
  }

  /**
   * Follows the log from `from` (exclusive): replays the backlog in pages, then delivers live entries, to `sink`.
   * The reusable reader of the log for HTTP `/log` and in-process consumers.
   */
  follow(from: bigint, sink: LogSink): LogFollower {
    const f = new LogFollower(this, from, sink);
    if (this.stopped) {
      f.stop('closed');
      return f;
    }
    void f.catchUp();
    return f;
  }

  /** @internal */
  attach(f: LogFollower): void {
    if (!this.stopped) this.followers.add(f);
    else f.stop('closed');
  }

  /** @internal */
  detach(f: LogFollower): void {
    this.followers.delete(f);
  }

  /** @internal */
  noteSlow(): void {
    this.slowFallbacks++;
  }

  /** Number of followers currently live. */
  get liveFollowers(): number {
    return this.followers.size;
  }
}
