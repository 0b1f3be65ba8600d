/**
 * The clients a driver of the platform needs, built once over one undici keep-alive agent: the partner's
 * (`BookieClient`, OAuth client credentials), the trading API's (operator token, a pool of its own), the players'
 * frame API, the reference wallet's and the operator's admin API.
 *
 * @packageDocumentation
 */
import { BookieClient } from '@bookie/sdk';
import { Agent } from 'undici';
import { httpTradingClient } from './apply-script.js';
import { AdminApi, FrameApi, WalletClient } from './clients.js';
import type { ReplayTarget } from './replay-target.js';

/** How many connections the agent and the trading pool keep open. */
export interface PlatformClientOptions {
  connections: number;
  tradingConnections: number;
  /** How long an idle connection is kept, ms (undici's default when absent). */
  keepAliveTimeout?: number;
}

/** Every client of {@link PlatformClientOptions}'s target; `agent` is theirs to close, `trading` has its own pool. */
export function platformClients(target: ReplayTarget, options: PlatformClientOptions) {
  const base = target.bookieUrl.replace(/\/$/, '');
  const agent = new Agent({
    connections: options.connections,
    pipelining: 1,
    ...(options.keepAliveTimeout !== undefined ? { keepAliveTimeout: options.keepAliveTimeout } : {}),
  });
  return {
    base,
    agent,
    partner: new BookieClient({
      baseUrl: base,
      clientId: target.clientId,
      clientSecret: target.clientSecret,
      dispatcher: agent,
    }),
    trading: httpTradingClient({
      baseUrl: base,
      token: target.adminToken,
      connections: options.tradingConnections,
    }),
    frame: new FrameApi(agent, base),
    wallet: new WalletClient(agent, target.walletUrl.replace(/\/$/, ''), target.walletAdminToken),
    admin: new AdminApi(agent, base, target.adminToken),
  };
}
