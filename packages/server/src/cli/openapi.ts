import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import pino from 'pino';
import { buildApp } from '../app/app.js';
import { buildDeps } from '../app/wiring.js';
import { loadConfig } from '../platform/config.js';
import { action } from './io.js';

/**
 * The OpenAPI document of this version of Bookie, without a running server: the app is built on a throwaway
 * in-memory database (nothing listens, nothing runs in the background) and its document written out.
 */
export async function openApiDocument(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, unknown>> {
  const config = loadConfig({
    ...env,
    DATABASE_URL: '',
    BOOKIE_DATA_DIR: 'memory',
    LOG_LEVEL: 'silent',
  });
  const deps = await buildDeps(config, { logger: pino({ level: 'silent' }) });
  try {
    const app = await buildApp(deps);
    await app.ready();
    const doc = app.swagger() as unknown as Record<string, unknown>;
    await app.close();
    return doc;
  } finally {
    await deps.lifecycle.stop();
  }
}

/** `bookie openapi [--out file]`: prints (or writes) the OpenAPI document that `/openapi.json` serves. */
export function openApiCommand(): Command {
  return new Command('openapi')
    .description(
      'print the OpenAPI 3.1 document of the HTTP API (what a running server serves at /openapi.json), ' +
        'for generating clients without a server',
    )
    .option('--out <file>', 'write it to this file instead of stdout')
    .action(
      action(async (o: { out?: string }) => {
        const text = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
        if (o.out) writeFileSync(o.out, text);
        else process.stdout.write(text);
      }),
    );
}
