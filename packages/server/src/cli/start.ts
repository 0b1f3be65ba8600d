import { stopGracefully } from '@bookie/process';
import { Command } from 'commander';
import { startServer } from '../app/server.js';
import { type ConfigOverrides, loadConfig } from '../platform/config.js';
import { action } from './io.js';
import { databaseOptions } from './options.js';

/** Flags of `bookie start`. */
type StartOptions = ConfigOverrides & { port?: string; host?: string; role?: string };

/** `bookie start`: runs the platform until SIGTERM/SIGINT, then shuts down gracefully (exit 0). */
export function startCommand(): Command {
  return databaseOptions(
    new Command('start')
      .description('start the Bookie server (HTTP API, feed, background workers)')
      .option('--port <port>', 'TCP port (default: $PORT or 8080)')
      .option('--host <host>', 'address to bind (default: $HOST or 127.0.0.1)')
      .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM; default: $TLS_CERT_FILE)')
      .option('--tls-key <file>', 'private key of --tls-cert (PEM; default: $TLS_KEY_FILE)')
      .option('--client-ca <file>', 'require client certificates signed by this CA (mutual TLS; PEM)')
      .option(
        '--role <role>',
        'all (default: API, feed, background work) or feed (read-only feed node on a streaming replica; $BOOKIE_ROLE)',
      )
      .addHelpText(
        'after',
        `
Settings (flags win over the environment; a bad value prints one line naming it and exits 2):
  BOOKIE_ADMIN_TOKEN   the operator token of the admin API (/admin/*, /trading/*) and of \`--url\` commands;
                       at least 16 characters; without it the admin API answers 403
  PORT, HOST           where to listen (default 127.0.0.1:8080); a port in use is refused with one line
  DATABASE_URL         Postgres; without it the embedded database in BOOKIE_DATA_DIR (default ./.bookie),
                       which only this process can open: other bookie commands use --url while it runs
  LOG_LEVEL            fatal | error | warn | info | debug | trace | silent (default info)
  LEADER_LEASE_MS      lease of the one-process background roles when several processes share Postgres
  SETTLEMENT_*         the settlement consumer: PAGE_SIZE, PAGES_IN_FLIGHT, SWEEP_MS, QUARANTINE_AFTER, LEASE_TTL_MS
  METRICS_PORT         serve /metrics (Prometheus) on this port without a token; else /metrics needs the admin token
Every setting: docs/operator-guide.md.

Example:
  BOOKIE_ADMIN_TOKEN=change-me-0123456789 npx bookie start --port 8080
`,
      ),
  ).action(
    action(async (opts: StartOptions) => {
      const config = loadConfig(process.env, opts);
      const server = await startServer(config);
      const log = server.deps.logger;
      log.info({ url: server.url, db: server.deps.database.kind }, `bookie listening on ${server.url}`);
      // scripts and tests wait for this line; say it even when the log level hides info
      if (!log.isLevelEnabled('info')) process.stdout.write(`bookie listening on ${server.url}\n`);
      stopGracefully({ log, stop: () => server.stop(), timeoutMs: config.shutdownTimeoutMs });
    }),
  );
}
