/**
 * The cost of the MCP layer: `GET /white-label` called one at a time as REST over loopback, and as the MCP tool of
 * the same operation over Streamable HTTP (stateless: one MCP server and transport per request, the route run
 * in-process with inject). The ratio is what to compare across machines.
 */

import { startServer } from '../packages/server/src/app/server.js';
import {
  CredentialAuthProvider,
  connectWithCredential,
} from '../packages/server/src/modules/integration/mcp/credential-auth-provider.js';
import { loadConfig } from '../packages/server/src/platform/config.js';
import { createPartner, partnerToken } from '../packages/server/src/testing/partner.js';
import { type BenchResult, opsPerSecond } from './types.js';

const ADMIN = 'bench-admin-token-0123456789';

export default async function run(args: string[]): Promise<BenchResult[]> {
  const ms = Number(args[0] ?? 1500);
  const server = await startServer({
    ...loadConfig({
      LOG_LEVEL: 'warn',
      BOOKIE_ENV: 'integration',
      BOOKIE_ADMIN_TOKEN: ADMIN,
      PARTNER_RATE_LIMIT: '0',
    }),
    port: 0,
    dataDir: undefined,
  });
  try {
    const p = await createPartner({ baseUrl: server.url, adminToken: ADMIN });
    const token = await partnerToken(server.url, p.clientId, p.clientSecret);
    const client = await connectWithCredential(
      new URL('/mcp', server.url),
      new CredentialAuthProvider({ clientId: p.clientId, clientSecret: p.clientSecret }),
    );
    const tool = (await client.listTools()).tools.find((t) => t.description?.startsWith('GET /white-label:'));
    if (!tool) throw new Error('no tool for GET /white-label');
    const rest = async () => {
      const r = await fetch(`${server.url}/white-label`, { headers: { authorization: `Bearer ${token}` } });
      await r.text();
    };
    const viaMcp = () => client.callTool({ name: tool.name, arguments: {} });
    await opsPerSecond(rest, 300);
    await opsPerSecond(viaMcp, 300);
    const restOps = await opsPerSecond(rest, ms);
    const mcpOps = await opsPerSecond(viaMcp, ms);
    await client.close();
    return [
      {
        name: 'white-label',
        metrics: { mcp_calls_per_s: mcpOps, rest_calls_per_s: restOps, ratio_to_rest: mcpOps / restOps },
        note: `one call at a time for ${ms} ms each, loopback, PGlite in memory`,
      },
    ];
  } finally {
    await server.stop();
  }
}
