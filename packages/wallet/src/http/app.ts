import { createCallbackHandler, SqlIdempotencyStore, type SqlRunner } from '@bookie/sdk';
import { kyselyRunner } from '@bookie/sdk/callbacks/kysely-runner';
import type { Database } from '@bookie/storage';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { type WalletHandlerOptions, walletHandlers, walletStatements } from '../callbacks/wallet-handlers.js';
import { groupedStatements } from '../db/grouped-statements.js';
import type { WalletDB } from '../db/schema.js';
import { apiRoutes } from './api-routes.js';
import { callbackRoutes } from './callback-routes.js';
import { installWalletErrorHandler } from './errors.js';
import type { Faults } from './faults.js';
import { frameRoutes, HeartbeatLog } from './frame-routes.js';

/** What the wallet's HTTP app needs. */
export interface WalletAppDeps {
  db: Kysely<WalletDB>;
  /**
   * Runs one statement on its own past Kysely ({@link Database.statement}, Postgres only): the callbacks' statements
   * take it when given, else they run through `db`.
   */
  statement?: Database['statement'];
  /**
   * Runs several statements as one transaction ({@link Database.statements}): when given, the callbacks' statements
   * that arrive together share one transaction and one commit (group commit, {@link groupedStatements}), each
   * answered after that commit; else each runs alone.
   */
  statements?: Database['statements'];
  /** Called with the size of each transaction of callback statements, when grouped (for tests and measures). */
  onStatementFlush?: (size: number) => void;
  /** Signing secrets (DECISIONS D11); empty turns signature verification off. */
  secrets: readonly string[];
  /** Currency when `Foreign-Params` names none. */
  defaultCurrency?: string | undefined;
  faults: Faults;
  adminToken?: string;
  /** Check callback bodies against the exact contract instead of accepting other senders' shapes (default false). */
  strictCallbacks?: boolean;
  /** Fastify logger settings (default off). */
  logger?: FastifyServerOptions['logger'];
  /** See {@link WalletHandlerOptions.onMovement}. */
  onMovement?: WalletHandlerOptions['onMovement'];
  /** Where heartbeats are counted (default: a new log). */
  heartbeats?: HeartbeatLog;
}

/**
 * The SQL runner of the callbacks' idempotency store: the callbacks' statements grouped into shared transactions
 * when `statements` is given, else each alone on `statement` (or through Kysely).
 */
function callbackRunner(deps: WalletAppDeps): SqlRunner<Transaction<WalletDB>> {
  const runner = kyselyRunner(deps.db);
  const single = deps.statement ?? runner.statement;
  if (!single) return runner;
  if (!deps.statements) return { ...runner, statement: single };
  return {
    ...runner,
    statement: groupedStatements({ single, batch: deps.statements, onFlush: deps.onStatementFlush }),
  };
}

/**
 * Builds the wallet's Fastify app: the callbacks at the root paths of spec 01 (`/bet/place`…, `/heartbeat`,
 * `/bet/cash-out-orders/…`) served by the SDK with the SQL idempotency store in the wallet's database, and the
 * wallet's own API (balances, ledger, deposits, admin), and what the betting frame needs of a partner: heartbeats
 * counted per player and banners (frame-routes.ts).
 */
export async function buildWalletApp(deps: WalletAppDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: deps.logger ?? false });
  installWalletErrorHandler(app);
  const heartbeats = deps.heartbeats ?? new HeartbeatLog();
  const handlerOptions = { defaultCurrency: deps.defaultCurrency, onMovement: deps.onMovement };
  const handler = createCallbackHandler({
    handlers: { ...walletHandlers(handlerOptions), heartbeat: (ctx) => heartbeats.record(ctx.foreignParams) },
    statements: walletStatements(handlerOptions),
    store: new SqlIdempotencyStore(callbackRunner(deps), { table: 'callback_requests' }),
    strict: deps.strictCallbacks ?? false,
    verifySignature: deps.secrets.length > 0,
    ...(deps.secrets.length > 0 ? { secret: deps.secrets } : {}),
    onError: (err, info) => app.log.error({ err, ...info }, 'callback failed'),
  });
  await callbackRoutes(app, handler, deps.faults);
  await apiRoutes(app, { db: deps.db, faults: deps.faults, adminToken: deps.adminToken });
  await frameRoutes(app, { heartbeats, secrets: deps.secrets });
  return app;
}
