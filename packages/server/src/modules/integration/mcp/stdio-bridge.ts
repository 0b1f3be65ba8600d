import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  CredentialAuthProvider,
  connectWithCredential,
  type WhiteLabelCredential,
} from './credential-auth-provider.js';

/**
 * `bookie mcp --url <integration base URL>`: Bookie's MCP server over stdio (DECISIONS D52), for MCP clients that
 * start a command. It connects to `<url>/mcp` over Streamable HTTP with the MCP authorization flow (the white
 * label's credential entered on the authorize page, the refresh token kept in memory) and relays `tools/list` and
 * `tools/call`; the tools are the integration environment's own.
 *
 * @returns once stdin closes.
 * @throws Error when the server cannot be reached or refuses the credential.
 */
export async function runStdioBridge(baseUrl: string, credential: WhiteLabelCredential): Promise<void> {
  const remote = await connectWithCredential(
    new URL('/mcp', baseUrl),
    new CredentialAuthProvider(credential),
    'bookie-mcp-stdio',
  );
  const info = remote.getServerVersion();
  const server = new Server(
    { name: info?.name ?? 'bookie-integration', version: info?.version ?? '0.1.0' },
    {
      capabilities: { tools: {} },
      ...(remote.getInstructions() ? { instructions: remote.getInstructions() } : {}),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => remote.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => remote.callTool(request.params) as never);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  process.stdin.on('end', () => void server.close());
  await closed;
  await remote.close();
}
