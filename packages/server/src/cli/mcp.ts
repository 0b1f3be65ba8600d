import { Command } from 'commander';
import { ConfigError } from '../platform/config.js';
import { action } from './io.js';

/**
 * `bookie mcp --url <integration base URL>`: the MCP server of an integration environment over stdio (DECISIONS
 * D52). The white label's credential comes from `BOOKIE_CLIENT_ID` and `BOOKIE_CLIENT_SECRET`; stdout carries the MCP
 * protocol only.
 */
export function mcpCommand(): Command {
  return new Command('mcp')
    .description(
      "Bookie's MCP server over stdio, relaying to an integration environment's /mcp (credential from " +
        'BOOKIE_CLIENT_ID and BOOKIE_CLIENT_SECRET)',
    )
    .requiredOption('--url <url>', 'base URL of the integration environment, e.g. http://127.0.0.1:8080')
    .action(
      action(async (o: { url: string }) => {
        let url: URL;
        try {
          url = new URL(o.url);
        } catch {
          throw new ConfigError('--url', `not a URL: "${o.url}"`);
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:') {
          throw new ConfigError('--url', `expected an http(s) URL, got "${o.url}"`);
        }
        const clientId = process.env.BOOKIE_CLIENT_ID;
        const clientSecret = process.env.BOOKIE_CLIENT_SECRET;
        if (!clientId) throw new ConfigError('BOOKIE_CLIENT_ID', "the white label's client id is required");
        if (!clientSecret)
          throw new ConfigError('BOOKIE_CLIENT_SECRET', "the white label's client secret is required");
        const { runStdioBridge } = await import('../modules/integration/mcp/stdio-bridge.js');
        await runStdioBridge(url.toString(), { clientId, clientSecret });
      }),
    );
}
