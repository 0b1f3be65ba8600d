import type { ServerResponse } from 'node:http';
import {
  BET_STATUS_CODES,
  BetPage,
  BetView,
  describeCodes,
  FrameBannerQuery,
  FrameBanners,
  FrameBetListQuery,
  FrameIdParams,
  FrameOriginCheck,
  FramePlayerBonuses,
  FrameRestrictionsQuery,
  FrameSessionTokenText,
  FrameSportEventQuery,
  PlaceBetRequest,
  RestrictionsAnswer,
  SportEvent,
  SportEventList,
} from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorResponse } from '../../http/openapi.js';
import { playerOf } from '../../http/request-context.js';
import { findSessions } from '../auth/index.js';
import { getRestrictions } from '../decision/index.js';
import { placeBet } from '../placement/index.js';
import { hashSecret } from '../tenants/index.js';
import { FRAME_VISIBLE_STATUSES, frameEventView } from './catalogue-view.js';
import { checkFrameOrigin } from './check-frame-origin.js';
import type { FrameRoutesDeps } from './deps.js';
import { isSessionOpen } from './frame.repo.js';
import { checkSessionOrigin, installFrameCors, knownOrigins } from './frame-cors.js';
import { serveFrame } from './frame-static.js';
import { bannerSource } from './get-banners.js';
import { getBet, listBets } from './get-bet.js';
import { playerBonuses } from './player-bonuses.js';
import { SessionActivity } from './session-activity.js';

const security = [{ bearer: [] }];
const tags = ['frame'];

function limitOf(raw: string | undefined, def: number, max: number): number {
  if (raw === undefined) return def;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    throw validationError('querystring.limit', `must be 1..${max}`);
  return Number(raw);
}

/**
 * The frame API for players, authenticated by a session token (D26): the book from the in-process replica, placing
 * bets, bet history, a live stream of odds and bet changes, the player's bonuses and the partner's banners (D48). Browser
 * calls are limited to the white label's `allowed_origins` (CORS, D49); every call marks the session active for
 * heartbeats (D47); the built betting frame is served at `/frame/` (docs/adr/0020-betting-frame.md).
 */
export async function frameRoutes(app: FastifyInstance, deps: FrameRoutesDeps): Promise<void> {
  const catalog = deps.feed.catalog;
  // an open player stream ends with its session (ended by /token/expire in any process, or expired), checked every
  // FEED_STREAM_RECHECK_MS for all the player streams of this process at once, as /log streams are
  const streams = new Map<ServerResponse, { hash: string; end: (reason: string) => void }>();
  const recheckMs = deps.feed.settings.streamRecheckMs;
  let rechecking = false;
  const recheck =
    recheckMs > 0
      ? setInterval(async () => {
          if (rechecking || streams.size === 0) return;
          rechecking = true;
          try {
            const open = [...streams];
            const rows = await findSessions(
              deps.database.db,
              open.map(([, s]) => s.hash),
            );
            const now = deps.clock.now();
            open.forEach(([res, s], i) => {
              const row = rows[i];
              if (row && row.ended_at === null && new Date(row.expires_at).getTime() > now) return;
              streams.delete(res);
              s.end('session_ended');
            });
          } catch (err) {
            app.log.warn({ err }, 'frame: re-checking the open player streams failed');
          } finally {
            rechecking = false;
          }
        }, recheckMs)
      : undefined;
  recheck?.unref();
  app.addHook('preClose', async () => {
    if (recheck) clearInterval(recheck);
    for (const res of streams.keys()) res.end();
  });
  const frame = deps.frame;
  const activity = new SessionActivity(frame);
  const banners = bannerSource(frame);
  installFrameCors(app, knownOrigins(frame));
  await serveFrame(app);
  // every frame route: the player's session (D26), its white label's allowed origins (D49), activity for D47
  const player = [
    app.requirePlayer,
    async (req: FastifyRequest, reply: FastifyReply) => {
      await checkSessionOrigin(frame, req, reply);
      activity.seen(req.player?.sessionId);
    },
  ];
  const errors = {
    400: ErrorResponse,
    401: ErrorResponse,
    403: ErrorResponse,
    429: ErrorResponse,
    500: ErrorResponse,
  };
  deps.cashOutRoutes(app, player, errors);
  app.post<{ Body: string }>(
    '/frame-api/origin',
    {
      // readable from any origin, so that a page whose origin is not allowed learns it (the answer names only the
      // caller's own origin); a text/plain body needs no preflight, which an unknown origin would fail
      onRequest: async (_req, reply) => {
        reply.header('access-control-allow-origin', '*');
      },
      schema: {
        tags,
        operationId: 'checkFrameOrigin',
        summary: "Is this page's origin allowed to run the frame for this session?",
        description:
          "The body is the player's session token as text/plain (no Authorization header, so the browser sends no " +
          "preflight). Answers whether the request's Origin is in the session's white label's allowed_origins: the " +
          'frame checks it before it starts and shows "this site is not allowed" instead of retrying a connection ' +
          'the browser blocks (CORS). 401 when the token is not an open session.',
        // the session token travels in the body, not in a security scheme's header
        security: [],
        consumes: ['text/plain'],
        body: FrameSessionTokenText,
        response: { 200: FrameOriginCheck, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (req) => checkFrameOrigin({ ...deps, ...frame }, { token: req.body, origin: req.headers.origin }),
  );
  app.get<{ Querystring: FrameSportEventQuery }>(
    '/frame-api/sport-events',
    {
      preHandler: player,
      schema: {
        tags,
        security,
        operationId: 'listFrameSportEvents',
        summary: 'Sport events of the frame: prematch, live and suspended, with markets and odds',
        description:
          'Events not started (0), live (1) and suspended (2, visible without bets). A suspended market is listed with its odds hidden. state=live lists live and suspended events.',
        querystring: FrameSportEventQuery,
        response: {
          200: SportEventList,
        },
      },
    },
    async (req) => {
      const limit = limitOf(req.query.limit, 200, 1000);
      const wanted =
        req.query.state === 'live'
          ? [1, 2]
          : req.query.state === 'prematch'
            ? [0]
            : [...FRAME_VISIBLE_STATUSES];
      const items: SportEvent[] = [];
      for (const e of catalog.allEvents()) {
        if (wanted.includes(e.fixture.status)) items.push(frameEventView(e));
        if (items.length >= limit) break;
      }
      return { items };
    },
  );
  app.get<{ Params: { id: string } }>(
    '/frame-api/sport-events/:id',
    {
      preHandler: player,
      schema: {
        tags,
        security,
        operationId: 'getFrameSportEvent',
        description: 'One sport event with its markets and current odds.',
        summary: 'One sport event',
        params: FrameIdParams,
        response: { 200: SportEvent },
      },
    },
    async (req) => {
      const e = catalog.getEvent(req.params.id);
      if (!e) throw new DomainError('not_found', `no sport event ${req.params.id}`, { field: 'id' });
      return frameEventView(e);
    },
  );
  app.get<{ Querystring: FrameRestrictionsQuery }>(
    '/frame-api/restrictions',
    {
      preHandler: player,
      schema: {
        tags,
        security,
        operationId: 'getFrameRestrictions',
        summary: "What placing the bet slip now would decide, for the session's player, without placing it",
        description:
          "The bet slip's look before placing: the same decision as GET /restrictions for the session's player " +
          '(integrity, odds strategy, bet type, limits, exposure, risk group). Without `stake`, `max_bet` is the ' +
          'largest stake the slip can place now and `max_payout` what it would pay. No bet is recorded.',
        querystring: FrameRestrictionsQuery,
        response: { 200: RestrictionsAnswer, ...errors },
      },
    },
    async (req) => {
      const p = playerOf(req);
      if (!p.playerId) throw new DomainError('forbidden', 'a read-only session places no bets');
      return getRestrictions(deps.placement, p.whiteLabelId, { ...req.query, player_id: p.playerId });
    },
  );
  app.post<{ Body: PlaceBetRequest }>(
    '/frame-api/bets',
    {
      preHandler: player,
      schema: {
        tags,
        security,
        operationId: 'placeBet',
        description:
          "Places a bet for the session's player: Bookie checks the selections, odds (by `odds_strategy`: 1 accept within tolerance, 2 accept higher, 3 accept any), limits and bonuses, holds the stake through the partner's `/bet/place`, then accepts or declines. The answer is the bet: status 1 accepted, 2 declined (with `restrictions` saying why), 10 place error, 11 force-declined.",
        summary: 'Place a bet: hold (/bet/place), validate, then accept or decline',
        body: PlaceBetRequest,
        response: { 200: BetView },
      },
    },
    async (req) => placeBet(deps.placement, playerOf(req), req.body),
  );
  app.get<{ Params: { id: string } }>(
    '/frame-api/bets/:id',
    {
      preHandler: player,
      schema: {
        tags,
        security,
        operationId: 'getPlayerBet',
        description: `One of the session player's bets with its status (${describeCodes(BET_STATUS_CODES)}; 0 while placing).`,
        summary: "One of the player's bets",
        params: FrameIdParams,
        response: { 200: BetView },
      },
    },
    async (req) =>
      getBet(
        deps.database.db,
        { whiteLabelId: playerOf(req).whiteLabelId, playerId: playerOf(req).playerId },
        req.params.id,
      ),
  );
  app.get<{ Querystring: FrameBetListQuery }>(
    '/frame-api/bets',
    {
      preHandler: player,
      schema: {
        tags,
        security,
        operationId: 'listPlayerBets',
        description:
          "The session player's bets, newest first; page with `cursor` (the previous answer's `next`).",
        summary: "The player's bets, newest first (history, paged)",
        querystring: FrameBetListQuery,
        response: { 200: BetPage },
      },
    },
    async (req) => {
      const p = playerOf(req);
      if (!p.playerId) throw new DomainError('forbidden', 'a read-only session has no bets');
      return listBets(
        deps.database.db,
        { whiteLabelId: p.whiteLabelId, playerId: p.playerId },
        {
          limit: limitOf(req.query.limit, 50, 200),
          ...(req.query.cursor ? { cursor: req.query.cursor } : {}),
        },
      );
    },
  );
  app.get(
    '/frame-api/stream',
    {
      preHandler: player,
      schema: {
        tags,
        security,
        operationId: 'streamFrameEvents',
        description:
          "A server-sent event stream for the frame: `odds` events with changed odds, markets, fixture (scores, status), meta (clock) and bet stop, `bet` events when one of the player's bets changes status, a ping comment every 15 s. Ends with a `session_ended` event when the session ends (POST /token/expire in any process, or its expiry), within FEED_STREAM_RECHECK_MS, as feed streams do.",
        summary:
          'Live stream (text/event-stream): `odds` events with changed odds, `bet` events with bet status changes',
        response: {
          200: {
            description: 'server-sent events: ready, odds, bet; a ping comment every 15 s',
            content: {
              'text/event-stream': {
                schema: {
                  type: 'string',
                  examples: [
                    'event: ready\ndata: {"player_id":"player-42"}\n\nevent: odds\ndata: {"sport_event_id":' +
                      '"5d3c9a7e-1b2f-4c8d-9e0a-7f6b5c4d3e21","changes":{"markets/1/odds/1/value":"2.450000000000"}}\n\n',
                  ],
                },
              },
            },
          },
        },
      },
    },
    async (req, reply) => {
      const p = playerOf(req);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store, must-revalidate',
        connection: 'keep-alive',
      });
      const send = (event: string, data: unknown) =>
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const onUpdate = (entry: { sport_event_id: string; changes: Record<string, unknown> }) => {
        // odds and markets, and what a live event shows besides: scores and clock (fixture, meta), bet stop
        const odds = Object.entries(entry.changes).filter(
          ([k]) =>
            k.startsWith('markets/') || k.startsWith('fixture/') || k.startsWith('meta') || k === 'bet_stop',
        );
        if (odds.length > 0)
          send('odds', { sport_event_id: entry.sport_event_id, changes: Object.fromEntries(odds) });
      };
      catalog.on('match_update', onUpdate);
      const unsubscribe = p.playerId
        ? deps.betEvents.subscribe(p.whiteLabelId, p.playerId, (bet) => send('bet', bet))
        : () => {};
      // the session ends (heartbeat refused, D47; token expired or ended): tell the frame at once and close
      const end = (reason: string) => {
        send('session_ended', { reason });
        res.end();
      };
      const offEnded = p.sessionId ? deps.sessionEvents.onEnded(p.sessionId, end) : () => {};
      const heartbeatS = deps.config.frame.heartbeatIntervalS;
      const keepAliveMs = heartbeatS > 0 ? Math.min(15_000, (heartbeatS * 1000) / 2) : 15_000;
      const ping = setInterval(() => {
        res.write(': ping\n\n');
        activity.seen(p.sessionId);
        if (p.sessionId)
          isSessionOpen(deps.database.db, p.sessionId, new Date(deps.clock.now())).then(
            (open) => {
              if (!open) end('session_ended');
            },
            () => {},
          );
      }, keepAliveMs);
      send('ready', { player_id: p.playerId });
      streams.set(res, { hash: hashSecret(p.token), end });
      req.raw.on('close', () => {
        streams.delete(res);
        clearInterval(ping);
        catalog.off('match_update', onUpdate);
        unsubscribe();
        offEnded();
      });
    },
  );
  app.get<{ Querystring: FrameBannerQuery }>(
    '/frame-api/banners',
    {
      preHandler: player,
      schema: {
        operationId: 'getFrameBanners',
        tags,
        security,
        summary: "The partner's banners for a place in the frame",
        description:
          'Asks the partner (`POST {callback}/banners` with `{locale, placement, player_id}`, signed like a callback) ' +
          'and keeps the answer per white label, locale and placement for `BANNER_CACHE_S` (60 s). Any failure of the ' +
          'partner answers an empty list: the frame then shows no banner.',
        querystring: FrameBannerQuery,
        response: { 200: FrameBanners, ...errors },
      },
    },
    async (req) => {
      const p = playerOf(req);
      return {
        banners: await banners({
          whiteLabelId: p.whiteLabelId,
          locale: req.query.locale ?? p.locale,
          placement: req.query.placement ?? 'top',
          playerId: p.playerId,
        }),
      };
    },
  );
  app.get(
    '/frame-api/bonuses',
    {
      preHandler: player,
      schema: {
        operationId: 'listFramePlayerBonuses',
        tags,
        security,
        summary: "The player's bonuses for the bet slip: available freebets and insurances, active boosts",
        description:
          "What the bet slip offers: the session player's freebets and insurances that are available (not used, " +
          'reserved, cancelled or expired) and bet boosts that are active, newest first (at most 100 of each). A ' +
          'read-only session has none.',
        response: { 200: FramePlayerBonuses, ...errors },
      },
    },
    async (req) => ({ items: await playerBonuses(deps.bonuses, playerOf(req)) }),
  );
}
