import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '@bookie/core';
import { FRAME_DIST } from '@bookie/frame/paths';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * Serves the built betting frame at `/frame/` (`bootstrap.js`, `app.js`; DECISIONS D49). The files are public and
 * carry no secret, so any origin may load them (`Access-Control-Allow-Origin: *`: the app is an ES module, which a
 * browser fetches with CORS). Without a build (`npm run build:frame`) `/frame/*` answers 404 saying so.
 */
export async function serveFrame(app: FastifyInstance, dir = FRAME_DIST): Promise<void> {
  if (!existsSync(join(dir, 'bootstrap.js'))) {
    app.get('/frame/*', { schema: { hide: true } }, async () => {
      throw new DomainError('not_found', 'the betting frame is not built: run `npm run build:frame`');
    });
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/frame/',
    decorateReply: false,
    index: false,
    cacheControl: true,
    maxAge: 60_000,
    setHeaders: (res) => {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('cross-origin-resource-policy', 'cross-origin');
    },
  });
}
