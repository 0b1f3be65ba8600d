import type { SportEvent } from '@bookie/contracts';
import { FeedReplica } from '@bookie/sdk';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import { type LeaderLease, runWhileLeader } from '../../platform/leadership/leader-lease.js';
import type { Lifecycle } from '../../platform/lifecycle.js';
import { LogHub, type LogHubOptions } from './log-hub.js';
import { readAll } from './read-all.js';
import { type RetentionSettings, runRetention } from './run-retention.js';

/** Settings of the feed (config `feed`). */
export interface FeedSettings extends RetentionSettings {
  /** How often retention runs, in seconds (0 = never). */
  retentionIntervalS: number;
  /** Bytes a `/log` connection may have queued before it falls back to catching up. */
  connectionBufferBytes: number;
  /** How often open `/log` streams are checked against revocation and the allowlist, ms (0 = never). */
  streamRecheckMs: number;
}

/**
 * Defaults of spec 02 "Limits": log 3 days, snapshots 5 days after the end, retention hourly, 1 MiB per connection;
 * open streams re-checked every 5 s.
 */
export const DEFAULT_FEED_SETTINGS: FeedSettings = {
  logRetentionS: 3 * 24 * 3600,
  snapshotRetentionS: 5 * 24 * 3600,
  retentionIntervalS: 3600,
  connectionBufferBytes: 1024 * 1024,
  streamRecheckMs: 5000,
};

/** The feed of one server process: the fan-out and the server's own replica of the book. */
export interface FeedService {
  /** Tails the log and fans it out (`/log`, in-process followers). */
  hub: LogHub;
  /**
   * The server's view of the book: the SDK's FeedReplica fed in-process from the log (ARCHITECTURE "The one log").
   * Bet validation asks it `isBettingAllowed(eventId, marketId, oddId)` and `getOdd(…)`.
   */
  catalog: FeedReplica;
  settings: FeedSettings;
  /** Wakes the fan-out after a local commit (the trading writer calls it). */
  poke(): void;
  /** False when other processes are not woken by NOTIFY after a trading commit (they poll). */
  doorbell: boolean;
}

/**
 * Starts the feed of this process: the fan-out (LISTEN bookie_log), the catalog (loaded like `/all`, then
 * following the log), and the retention job. Everything stops through `lifecycle`.
 */
export async function startFeed(deps: {
  database: Database;
  logger: Logger;
  clock: Clock;
  lifecycle: Lifecycle;
  settings?: Partial<FeedSettings>;
  /**
   * The `retention` role's lease when several processes may share the database: retention then runs only in its
   * leader, fenced. `false`: no retention in this process (a feed node on a read-only replica).
   */
  retentionLease?: LeaderLease | false;
  /** Wake other processes by NOTIFY after trading commits (default true). */
  doorbell?: boolean;
  /** How the fan-out tails the log (a feed node on a replica polls instead of LISTEN). */
  tail?: Pick<LogHubOptions, 'listen' | 'pollMs'>;
}): Promise<FeedService> {
  const settings = { ...DEFAULT_FEED_SETTINGS, ...deps.settings };
  const hub = new LogHub(deps.database, deps.logger, {
    pageBytes: settings.connectionBufferBytes,
    ...deps.tail,
  });
  await hub.start();
  deps.lifecycle.onStop('feed fan-out', () => hub.stop());

  const catalog = new FeedReplica({ checkpointIntervalMs: 0 });
  const events: SportEvent[] = [];
  let version = 0n;
  await readAll(deps, {
    start: (v) => {
      version = v;
    },
    write: async (chunk) => {
      for (const line of chunk.split('\n')) if (line) events.push(JSON.parse(line) as SportEvent);
    },
    aborted: () => false,
  });
  catalog.reset(events, version);
  hub.follow(version, {
    write: (item) => {
      try {
        catalog.applyLine(item.line);
      } catch (err) {
        deps.logger.error({ err, v: item.v.toString() }, 'feed: the catalog could not apply an entry');
      }
      return true;
    },
    drained: () => Promise.resolve(),
    caughtUp: () => catalog.setConnected(true),
    end: (reason, err) => {
      catalog.setConnected(false, reason);
      if (reason !== 'closed')
        deps.logger.error({ err, reason }, 'feed: the catalog stopped following the log');
    },
  });

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const lease = deps.retentionLease;
  if (settings.retentionIntervalS > 0 && lease) {
    const stop = runWhileLeader(
      lease,
      settings.retentionIntervalS * 1000,
      async (fence) => {
        const r = await runRetention(deps, settings, fence);
        if (r.logDeleted > 0 || r.snapshotsDeleted > 0) {
          deps.logger.info({ ...r, floor: r.floor?.toString() }, 'feed retention');
        }
      },
      (err) => deps.logger.error({ err }, 'feed retention failed'),
    );
    deps.lifecycle.onStop('feed retention', stop);
  } else if (settings.retentionIntervalS > 0 && lease === undefined) {
    const tick = () => {
      if (running) return;
      running = runRetention(deps, settings)
        .then((r) => {
          if (r.logDeleted > 0 || r.snapshotsDeleted > 0) {
            deps.logger.info({ ...r, floor: r.floor?.toString() }, 'feed retention');
          }
        })
        .catch((err) => deps.logger.error({ err }, 'feed retention failed'))
        .finally(() => {
          running = undefined;
        });
    };
    timer = setInterval(tick, settings.retentionIntervalS * 1000);
    timer.unref();
    deps.lifecycle.onStop('feed retention', async () => {
      clearInterval(timer);
      await running;
    });
  }
  return { hub, catalog, settings, poke: () => hub.poke(), doorbell: deps.doorbell ?? true };
}
