import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where `npm run build -w @bookie/backoffice` writes the web app (git-ignored). */
export const BACKOFFICE_DIST = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'backoffice',
  'dist',
);

/**
 * Serves the backoffice web app (packages/backoffice, built to static files) at `/backoffice/`. Without a build
 * the page says how to make one. The app talks to the server only over its REST API.
 */
export async function backofficeRoutes(app: FastifyInstance): Promise<void> {
  const built = existsSync(join(BACKOFFICE_DIST, 'index.html'));
  app.get('/backoffice', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/backoffice/'));
  if (!built) {
    app.get('/backoffice/', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The backoffice is not built: run `npm run build -w @bookie/backoffice` and restart.\n'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: BACKOFFICE_DIST,
    prefix: '/backoffice/',
    decorateReply: false,
    index: ['index.html'],
    setHeaders: (res, path) => {
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('x-frame-options', 'DENY');
      if (path.endsWith('index.html')) {
        res.setHeader('cache-control', 'no-store');
        res.setHeader(
          'content-security-policy',
          "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        );
      }
    },
  });
}
