import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  FEED_API_VERSION,
  FEED_LOG_CACHE_CONTROL,
  LogQuery,
  RefetchResponse,
  SportEventIdParams,
} from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import { refetchSportEvent } from '../trading/index.js';
import { readBounds } from './feed.repo.js';
import type { FeedService } from './feed.service.js';
import type { LogItem, LogSink } from './log-hub.js';
import { readAll } from './read-all.js';
import { type OpenStream, recheckStreams } from './recheck-streams.js';

/** What the feed routes need. */
export interface FeedRouteDeps {
  database: Database;
  clock: Clock;
  feed: FeedService;
}

const VERSION_RE = /^(0|[1-9][0-9]{0,18})$/;
const MAX_VERSION = 2n ** 63n - 1n;

function heartbeatLine(clock: Clock): string {
  return `{"type":"heartbeat","timestamp":${Math.floor(clock.now() / 1000)}}\n`;
}

/** Parses the Last-Version request header (DECISIONS D21); 400 naming it when missing or malformed. */
export function parseLastVersion(raw: string | string[] | undefined): bigint {
  if (raw === undefined) throw validationError('headers.last-version', 'the Last-Version header is required');
  const s = Array.isArray(raw) ? raw[0] : raw;
  if (s === undefined || !VERSION_RE.test(s.trim()) || BigInt(s.trim()) > MAX_VERSION) {
    throw validationError('headers.last-version', 'must be a decimal version, e.g. "1042"');
  }
  return BigInt(s.trim());
}

/** A `/log` response as a fan-out sink: bounded by `limit` queued bytes, backpressure through 'drain'. */
class ResponseSink implements LogSink {
  onEnd: () => void = () => {};
  constructor(
    private readonly res: ServerResponse,
    private readonly limit: number,
  ) {}
  write(item: LogItem): boolean {
    if (this.res.destroyed) return true;
    this.res.write(item.bytes);
    return this.res.writableLength < this.limit;
  }
  writeBatch(bytes: Buffer): boolean {
    if (this.res.destroyed) return true;
    this.res.write(bytes);
    return this.res.writableLength < this.limit;
  }
  cork(): void {
    this.res.cork();
  }
  uncork(): void {
    this.res.uncork();
  }
  drained(): Promise<void> {
    if (this.res.destroyed || !this.res.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }
  caughtUp?: () => void;
  end(reason: 'closed' | 'expired' | 'error'): void {
    this.onEnd();
    // expired or failed mid-stream: cut the connection, the client reconnects (and gets 409 when expired)
    if (reason === 'closed') this.res.end();
    else this.res.destroy();
  }
}

/**
 * The partner feed (spec 02 "Endpoints", DECISIONS D21–D25): `GET /all`, `GET /log`,
 * `POST /refetch/sport-event/{id}`, behind a partner's bearer token (`app.requirePartner`).
 */
export async function feedRoutes(app: FastifyInstance, deps: FeedRouteDeps): Promise<void> {
  const open = new Set<ServerResponse>();
  // Connections that never sent a byte: Node's server.close() does not reap them (HTTP clients such as undici
  // open spare connections while a long stream runs), so close would wait for them forever.
  const silent = new Set<Socket>();
  app.server.on('connection', (s: Socket) => {
    silent.add(s);
    s.once('data', () => silent.delete(s));
    s.once('close', () => silent.delete(s));
  });
  // an open /log stream ends when its credential is revoked or its address leaves the allowlist (checked every
  // streamRecheckMs for all the streams of this process at once)
  const streams = new Map<ServerResponse, OpenStream>();
  const recheckMs = deps.feed.settings.streamRecheckMs;
  let rechecking = false;
  const recheck =
    recheckMs > 0
      ? setInterval(async () => {
          if (rechecking || streams.size === 0) return;
          rechecking = true;
          try {
            const checked = [...streams];
            const verdicts = await recheckStreams(
              deps,
              checked.map(([, s]) => s),
            );
            checked.forEach(([res, s], i) => {
              const reason = verdicts[i];
              if (!reason) return;
              app.log.info(
                { credential_id: s.credentialId, address: s.address, reason },
                'feed: /log stream ended',
              );
              streams.delete(res);
              res.end();
            });
          } catch (err) {
            app.log.warn({ err }, 'feed: re-checking the open /log streams failed');
          } finally {
            rechecking = false;
          }
        }, recheckMs)
      : undefined;
  recheck?.unref();
  // streams never end by themselves: end them when the server closes, so that close does not wait forever
  app.addHook('preClose', async () => {
    if (recheck) clearInterval(recheck);
    for (const res of open) res.end();
    for (const s of silent) s.destroy();
  });
  const security: Array<Record<string, string[]>> = [{ bearer: [] }, { clientCertificate: [] }];
  const common = { tags: ['feed'], security };

  app.get(
    '/all',
    {
      preHandler: app.requirePartner,
      // spec 02: a client certificate bound to the white label is enough (docs/adr/0016)
      config: { certificateAuth: true },
      schema: {
        ...common,
        operationId: 'getFeedSnapshot',
        description:
          'Every sport event snapshot, one JSON object per line (chunked), then the version the snapshot is at in the Last-Version header. A replica starts here, then follows GET /log from that version.',
        summary: 'Every sport event snapshot, one JSON line each (chunked), with Last-Version',
        response: {
          200: {
            description:
              'one snapshot per line; headers Last-Version (decimal), Last-Version-Hex (lowercase hex), X-Api-Version: 2',
            content: {
              'application/x-ndjson': {
                schema: {
                  type: 'string',
                  examples: [
                    '{"id":"5d3c9a7e-1b2f-4c8d-9e0a-7f6b5c4d3e21","fixture":{…},"markets":{…},"bet_stop":false,…}\n',
                  ],
                },
              },
            },
          },
        },
      },
    },
    async (_req, reply) => {
      reply.hijack();
      const res = reply.raw;
      open.add(res);
      res.on('close', () => open.delete(res));
      try {
        await readAll(deps, {
          start(v) {
            res.writeHead(200, {
              'content-type': 'application/x-ndjson; charset=utf-8',
              'last-version': v.toString(),
              'last-version-hex': v.toString(16),
              'x-api-version': FEED_API_VERSION,
              'cache-control': FEED_LOG_CACHE_CONTROL,
            });
          },
          async write(chunk) {
            if (res.destroyed) return;
            if (!res.write(chunk)) {
              await new Promise<void>((resolve) => {
                const done = () => {
                  res.off('drain', done);
                  res.off('close', done);
                  resolve();
                };
                res.on('drain', done);
                res.on('close', done);
              });
            }
          },
          aborted: () => res.destroyed,
        });
        res.end();
      } catch (err) {
        app.log.error({ err }, 'feed: /all failed');
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"error":{"code":"internal_error","message":"internal error","details":{}}}');
        } else res.destroy();
      }
    },
  );

  app.get<{ Querystring: { heartbeat_interval?: string } }>(
    '/log',
    {
      preHandler: app.requirePartner,
      // spec 02: a client certificate bound to the white label is enough (docs/adr/0016)
      config: { certificateAuth: true },
      schema: {
        ...common,
        operationId: 'getFeedLog',
        description:
          'The feed log after the version in the Last-Version header: the backlog, then live entries as they are written, one JSON entry per line, with a heartbeat line when idle. 409 when that version is older than the retention floor or newer than the head: start again from GET /all.',
        summary: 'The log after Last-Version: backlog then live, one JSON entry or heartbeat per line',
        querystring: LogQuery,
        headers: {
          type: 'object',
          properties: { 'last-version': { type: 'string', description: 'decimal version (required)' } },
        },
        response: {
          200: {
            description: 'text/event-stream; one log entry or heartbeat per line',
            content: {
              'text/event-stream': {
                schema: {
                  type: 'string',
                  examples: [
                    '{"type":"match_update","version":"18","sport_event_id":"5d3c9a7e-1b2f-4c8d-9e0a-7f6b5c4d3e21",' +
                      '"changes":{"markets/1/odds/1/value":"2.450000000000"}}\n{"type":"heartbeat","version":"18"}\n',
                  ],
                },
              },
            },
          },
          400: { description: 'Last-Version missing or malformed, or a bad heartbeat_interval' },
          409: { description: 'Last-Version below the retention floor or above the head: resync from /all' },
        },
      },
    },
    async (req, reply: FastifyReply) => {
      reply.header('x-api-version', FEED_API_VERSION);
      const from = parseLastVersion(req.headers['last-version']);
      let interval = 0;
      const hi = req.query.heartbeat_interval;
      if (hi !== undefined) {
        interval = Number(hi);
        if (!Number.isInteger(interval) || interval < 1 || interval > 3600) {
          throw validationError('querystring.heartbeat_interval', 'must be whole seconds, 1–3600');
        }
      }
      const { head, floor } = await readBounds(deps.database.db);
      if (from < floor || from > head) {
        throw new DomainError(
          'version_expired',
          from < floor
            ? `version ${from} has expired (retention removed entries up to ${floor}); resync from /all`
            : `version ${from} is above the head ${head}; resync from /all`,
          { last_version: from.toString(), floor: floor.toString(), head: head.toString() },
        );
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': FEED_LOG_CACHE_CONTROL,
        'x-api-version': FEED_API_VERSION,
        'x-accel-buffering': 'no',
      });
      res.flushHeaders();
      res.socket?.setNoDelay(true);
      open.add(res);
      if (req.partner) streams.set(res, { credentialId: req.partner.credentialId, address: req.ip });
      const sink = new ResponseSink(res, deps.feed.settings.connectionBufferBytes);
      let timer: NodeJS.Timeout | undefined;
      sink.caughtUp = () => {
        // D25: one heartbeat right after the backlog, then every heartbeat_interval seconds
        if (!res.destroyed) res.write(heartbeatLine(deps.clock));
        if (interval > 0) {
          timer = setInterval(() => {
            if (!res.destroyed) res.write(heartbeatLine(deps.clock));
          }, interval * 1000);
        }
      };
      sink.onEnd = () => {
        if (timer) clearInterval(timer);
        open.delete(res);
        streams.delete(res);
      };
      const follower = deps.feed.hub.follow(from, sink);
      res.on('close', () => {
        if (timer) clearInterval(timer);
        open.delete(res);
        streams.delete(res);
        follower.close();
      });
    },
  );

  app.post<{ Params: { id: string } }>(
    '/refetch/sport-event/:id',
    {
      preHandler: app.requirePartner,
      // spec 02: a client certificate bound to the white label is enough (docs/adr/0016)
      config: { certificateAuth: true },
      schema: {
        ...common,
        operationId: 'refetchSportEvent',
        description:
          'Asks for one sport event again: Bookie appends a fresh `match_new` for it with a new version, which reaches the replica through GET /log. For a replica that lost one event.',
        summary: 'Re-send one sport event: appends a match_new with a new version',
        params: SportEventIdParams,
        response: { 202: RefetchResponse },
      },
    },
    async (req, reply) => {
      reply.header('x-api-version', FEED_API_VERSION);
      const r = await refetchSportEvent({ ...deps, feed: deps.feed }, { id: req.params.id });
      return reply.status(202).send({ version: r.version.toString() });
    },
  );
}
