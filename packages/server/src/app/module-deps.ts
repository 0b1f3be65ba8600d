import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import { AdvisoryWrites } from '../modules/advisory/advisory-writes.js';
import type { AdvisoryDeps } from '../modules/advisory/deps.js';
import type { BetBuilderRoutesDeps } from '../modules/bet-builder/bet-builder.routes.js';
import { frameBetBuilderRoutes } from '../modules/bet-builder/bet-builder.routes.js';
import {
  type BetBuilderDeps,
  BuilderModelCache,
  cachedBuilderSettings,
  EventVersions,
} from '../modules/bet-builder/index.js';
import type { BonusesDeps } from '../modules/bonuses/deps.js';
import { quoteKey } from '../modules/cash-out/cash-out.repo.js';
import { frameCashOutRoutes } from '../modules/cash-out/cash-out.routes.js';
import { type CashOutDeps, marginsCached, once, parseMoneyOf } from '../modules/cash-out/deps.js';
import type { FrameDeps, FrameRoutesDeps } from '../modules/frame/deps.js';
import type { MtsDeps } from '../modules/mts/deps.js';
import { ReportWrites } from '../modules/mts/report-writes.js';
import type { PartnerBetsRoutesDeps } from '../modules/partner-bets/partner-bets.routes.js';
import type { RiskRoutesDeps } from '../modules/risk/risk.routes.js';
import type { ConsumerDeps } from '../modules/settlement/deps.js';
import type { SettlementRoutesDeps } from '../modules/settlement/settlement.routes.js';
import { cachedWhiteLabels } from '../modules/tenants/cached-white-labels.js';
import { supportsCallback } from '../modules/tenants/white-label.js';
import type { AppDeps } from './app-deps.js';

// One adapter per module: what the module declares it needs (its deps.ts), out of the services the app built once.

/** Settlement's dependencies out of the app's. */
export function settlementDeps(app: AppDeps): ConsumerDeps {
  return {
    database: app.database,
    clock: app.clock,
    logger: app.logger,
    betEvents: app.betEvents,
    whiteLabels: app.placement.whiteLabels,
    expressCap: app.placement.settings.expressCap,
    kick: () => app.callbacks.dispatcher.kick(),
    ...(app.risk.shader ? { exposureChanged: (odds) => app.risk.shader?.kick(odds) } : {}),
    currentEvent: (id) => app.feed.catalog.getEvent(id),
    hub: app.feed.hub,
    catalog: app.feed.catalog,
  };
}

/** The settlement admin routes' dependencies: settlement's, and the consumer once the background work runs. */
export function settlementRoutesDeps(app: AppDeps): SettlementRoutesDeps {
  return { database: app.database, settlement: settlementDeps(app), consumer: () => app.settlement };
}

/** The MTS dependencies out of the app's. */
export function mtsDeps(app: AppDeps): MtsDeps {
  return {
    placement: app.placement,
    settlement: settlementDeps(app),
    maxWaitS: app.config.bets.mtsMaxWaitS,
    writes: new ReportWrites(app.database),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
}

/** The advisory dependencies out of the app's. */
export function advisoryDeps(app: AppDeps): AdvisoryDeps {
  return { placement: app.placement, writes: new AdvisoryWrites(app.database) };
}

/** Cash-out's dependencies out of the app's. */
export function cashOutDeps(app: AppDeps): CashOutDeps {
  const settlement = settlementDeps(app);
  return {
    database: app.database,
    clock: app.clock,
    currentEvent: (id) => app.feed.catalog.getEvent(id),
    expressCap: app.placement.settings.expressCap,
    async maxPayout(whiteLabelId) {
      const wl = await app.placement.whiteLabels.get(whiteLabelId);
      return wl.limits.maxPayout ? parseMoneyOf(wl.limits.maxPayout) : undefined;
    },
    async payable(whiteLabelId) {
      return supportsCallback(await app.placement.whiteLabels.get(whiteLabelId), 'cash_out');
    },
    margin: marginsCached(
      app.database,
      parseMoneyOf(app.config.bets.cashOutMargin),
      app.clock,
      app.config.risk.settingsCacheMs,
    ),
    quoteTtlMs: app.config.bets.cashOutQuoteTtlS * 1000,
    quoteKey: once(() => quoteKey(app.database.db)),
    settlement,
    kick: () => app.callbacks.dispatcher.kick(),
  };
}

/** The bonus use cases' dependencies out of the app's. */
export function bonusesDeps(app: AppDeps): BonusesDeps {
  return { database: app.database, clock: app.clock, whiteLabels: app.placement.whiteLabels };
}

/** The frame module's dependencies out of the application's. */
export function frameDeps(app: AppDeps): FrameDeps {
  return {
    database: app.database,
    clock: app.clock,
    logger: app.logger,
    settings: app.config.frame,
    whiteLabels: cachedWhiteLabels({ database: app.database, clock: app.clock }),
    targets: app.callbacks.targets,
    sender: app.callbacks.sender,
    sessionEvents: app.sessionEvents,
  };
}

/** The frame routes' dependencies: the frame's, and the player's cash-out routes registered inside them. */
export function frameRoutesDeps(app: AppDeps): FrameRoutesDeps {
  return {
    database: app.database,
    clock: app.clock,
    config: app.config,
    frame: frameDeps(app),
    feed: app.feed,
    placement: app.placement,
    bonuses: bonusesDeps(app),
    betEvents: app.betEvents,
    sessionEvents: app.sessionEvents,
    cashOutRoutes: (
      fastify: FastifyInstance,
      player: preHandlerHookHandler[],
      errors: Record<number, unknown>,
    ) => frameCashOutRoutes(fastify, cashOutDeps(app), player, errors),
    builderRoutes: (
      fastify: FastifyInstance,
      player: preHandlerHookHandler[],
      errors: Record<number, unknown>,
    ) => frameBetBuilderRoutes(fastify, betBuilderDeps(app), player, errors),
  };
}

const builderOfApp = new WeakMap<AppDeps, BetBuilderDeps>();

/**
 * The bet builder's dependencies out of the app's: one model cache per process (following the feed replica's event
 * versions), the white labels' settings through the risk settings cache, the cash-out quote key.
 */
export function betBuilderDeps(app: AppDeps): BetBuilderDeps {
  let deps = builderOfApp.get(app);
  if (!deps) {
    const versions = new EventVersions(app.feed.catalog);
    deps = {
      clock: app.clock,
      currentEvent: (id) => app.feed.catalog.getEvent(id),
      models: new BuilderModelCache((id) => versions.of(id)),
      settings: cachedBuilderSettings(app.database, app.clock, app.config.risk.settingsCacheMs),
      quoteKey: once(() => quoteKey(app.database.db)),
      quoteTtlMs: app.config.bets.builderQuoteTtlS * 1000,
    };
    builderOfApp.set(app, deps);
  }
  return deps;
}

/** The bet builder routes' dependencies out of the app's. */
export function betBuilderRoutesDeps(app: AppDeps): BetBuilderRoutesDeps {
  return { builder: betBuilderDeps(app), database: app.database };
}

/** The partner's bet routes' dependencies out of the app's. */
export function partnerBetsDeps(app: AppDeps): PartnerBetsRoutesDeps {
  return { database: app.database, settlement: settlementDeps(app) };
}

/** The risk routes' dependencies out of the app's. */
export function riskRoutesDeps(app: AppDeps): RiskRoutesDeps {
  return { database: app.database, risk: app.risk };
}
