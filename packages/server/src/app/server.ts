import type { FastifyInstance } from 'fastify';
import { serveMetrics } from '../modules/metrics/metrics.routes.js';
import type { Config } from '../platform/config.js';
import { buildApp } from './app.js';
import { type AppDeps, type BuildDepsOptions, buildDeps, startBackground } from './wiring.js';

/** A running server: its address, and a graceful stop. */
export interface RunningServer {
  app: FastifyInstance;
  deps: AppDeps;
  url: string;
  /** Stops accepting, finishes in-flight requests, stops background work, closes the database. */
  stop(): Promise<void>;
}

/** Builds and starts the whole platform on `config`. */
export async function startServer(config: Config, opts: BuildDepsOptions = {}): Promise<RunningServer> {
  const deps = await buildDeps(config, opts);
  let app: FastifyInstance;
  try {
    app = await buildApp(deps);
    await app.listen({ port: config.port, host: config.host });
    await startBackground(deps);
    if (config.scaleOut.metricsPort !== undefined && deps.metrics) {
      const m = await serveMetrics(deps.metrics, config.scaleOut.metricsPort, config.host);
      deps.lifecycle.onStop('metrics port', m.close);
      deps.logger.info({ url: `${m.url}/metrics` }, 'metrics served');
    }
  } catch (err) {
    await deps.lifecycle.stop();
    throw err;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let stopped: Promise<void> | undefined;
  return {
    app,
    deps,
    url: `${config.tls ? 'https' : 'http'}://${host}:${port}`,
    stop() {
      stopped ??= (async () => {
        await app.close();
        await deps.lifecycle.stop((name, err) => deps.logger.error({ err, name }, 'error while stopping'));
      })();
      return stopped;
    },
  };
}
