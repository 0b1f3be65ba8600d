import type { FastifyInstance } from 'fastify';
import { advisoryRoutes } from '../modules/advisory/advisory.routes.js';
import { oauthRoutes } from '../modules/auth/oauth.routes.js';
import { sessionRoutes } from '../modules/auth/session.routes.js';
import { backofficeRoutes } from '../modules/backoffice/backoffice.routes.js';
import { partnerBetsRoutes } from '../modules/bets/partner-bets.routes.js';
import { bonusesRoutes } from '../modules/bonuses/bonuses.routes.js';
import { callbacksRoutes } from '../modules/callbacks/callbacks.routes.js';
import { cashOutRoutes } from '../modules/cash-out/cash-out.routes.js';
import { dictionariesRoutes } from '../modules/dictionaries/dictionaries.routes.js';
import { feedRoutes } from '../modules/feed/feed.routes.js';
import { frameRoutes } from '../modules/frame/frame.routes.js';
import { integrationRoutes } from '../modules/integration/integration.routes.js';
import { metricsRoutes } from '../modules/metrics/metrics.routes.js';
import { mtsRoutes } from '../modules/mts/mts.routes.js';
import { overviewRoutes } from '../modules/reports/overview.routes.js';
import { reportsRoutes } from '../modules/reports/reports.routes.js';
import { riskRoutes } from '../modules/risk/risk.routes.js';
import { settlementRoutes } from '../modules/settlement/settlement.routes.js';
import { tenantsRoutes } from '../modules/tenants/tenants.routes.js';
import { tradingRoutes } from '../modules/trading/trading.routes.js';
import { usersRoutes } from '../modules/users/users.routes.js';
import type { AppDeps } from './wiring.js';

/**
 * Registers every module's routes and background work. One line per module, in dependency order.
 */
export async function registerModules(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await tenantsRoutes(app, deps);
  await oauthRoutes(app, deps);
  await sessionRoutes(app, deps);
  await tradingRoutes(app, deps);
  await feedRoutes(app, deps);
  await callbacksRoutes(app, deps);
  await frameRoutes(app, deps);
  await bonusesRoutes(app, deps);
  await settlementRoutes(app, deps);
  await riskRoutes(app, deps);
  await partnerBetsRoutes(app, deps);
  await mtsRoutes(app, deps);
  await advisoryRoutes(app, deps);
  await cashOutRoutes(app, deps);
  await dictionariesRoutes(app, deps);
  await reportsRoutes(app, deps);
  await overviewRoutes(app, deps);
  await usersRoutes(app, deps);
  await backofficeRoutes(app, deps);
  await integrationRoutes(app, deps);
  await metricsRoutes(app, deps);
}
