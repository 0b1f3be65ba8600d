import type { FastifyInstance } from 'fastify';
import { advisoryRoutes } from '../modules/advisory/advisory.routes.js';
import { oauthRoutes } from '../modules/auth/oauth.routes.js';
import { sessionRoutes } from '../modules/auth/session.routes.js';
import { backofficeRoutes } from '../modules/backoffice/backoffice.routes.js';
import { bonusesRoutes } from '../modules/bonuses/bonuses.routes.js';
import { callbacksRoutes } from '../modules/callbacks/callbacks.routes.js';
import { cashOutRoutes } from '../modules/cash-out/cash-out.routes.js';
import { marginDeps } from '../modules/cash-out/deps.js';
import { decisionRoutes } from '../modules/decision/decision.routes.js';
import { dictionariesRoutes } from '../modules/dictionaries/dictionaries.routes.js';
import { feedRoutes } from '../modules/feed/feed.routes.js';
import { frameRoutes } from '../modules/frame/frame.routes.js';
import { integrationRoutes } from '../modules/integration/integration.routes.js';
import { metricsRoutes } from '../modules/metrics/metrics.routes.js';
import { mtsRoutes } from '../modules/mts/mts.routes.js';
import { partnerBetsRoutes } from '../modules/partner-bets/partner-bets.routes.js';
import { overviewRoutes } from '../modules/reports/overview.routes.js';
import { reconcileRoutes } from '../modules/reports/reconcile.routes.js';
import { reportsRoutes } from '../modules/reports/reports.routes.js';
import { riskRoutes } from '../modules/risk/risk.routes.js';
import { settlementRoutes } from '../modules/settlement/settlement.routes.js';
import { tenantsRoutes } from '../modules/tenants/tenants.routes.js';
import { tradingRoutes } from '../modules/trading/trading.routes.js';
import { usersRoutes } from '../modules/users/users.routes.js';
import {
  advisoryDeps,
  bonusesDeps,
  cashOutDeps,
  frameRoutesDeps,
  mtsDeps,
  partnerBetsDeps,
  riskRoutesDeps,
  settlementDeps,
  settlementRoutesDeps,
} from './module-deps.js';
import type { AppDeps } from './wiring.js';

/**
 * Registers every module's routes, each with its own module's deps (app/module-deps.ts). One line per module, in
 * dependency order.
 */
export async function registerModules(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await tenantsRoutes(app, deps);
  await oauthRoutes(app, deps);
  await sessionRoutes(app, deps);
  await tradingRoutes(app, deps);
  await feedRoutes(app, deps);
  await callbacksRoutes(app, deps);
  await frameRoutes(app, frameRoutesDeps(deps));
  await bonusesRoutes(app, bonusesDeps(deps));
  await settlementRoutes(app, settlementRoutesDeps(deps));
  await reconcileRoutes(app, { settlement: settlementDeps(deps) });
  await decisionRoutes(app, { placement: deps.placement });
  await riskRoutes(app, riskRoutesDeps(deps));
  await partnerBetsRoutes(app, partnerBetsDeps(deps));
  await mtsRoutes(app, mtsDeps(deps));
  await advisoryRoutes(app, advisoryDeps(deps));
  await cashOutRoutes(app, cashOutDeps(deps), marginDeps(deps));
  await dictionariesRoutes(app, deps);
  await reportsRoutes(app, deps);
  await overviewRoutes(app, deps);
  await usersRoutes(app, deps);
  await backofficeRoutes(app);
  await integrationRoutes(app, deps);
  await metricsRoutes(app, deps);
}
