import type { FastifyInstance } from 'fastify';

/** The landing page at `/`: what this server serves, for someone who just started it and opened it in a browser. */
export const LANDING_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bookie</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem}code{font-size:90%}</style>
</head>
<body>
<h1>Bookie is running</h1>
<p>An open-source B2B sportsbook platform. From here:</p>
<ul>
<li><a href="/backoffice/">The backoffice</a>: white labels, risk, bets, callbacks (sign in with a backoffice user:
<code>bookie user create</code>).</li>
<li><a href="/frame/bootstrap.js">The betting frame</a> (<code>/frame/bootstrap.js</code>): a partner embeds it in its
own site; <code>npm start</code> runs a demo partner site that embeds it and prints its address ("Bet yourself").</li>
<li><a href="/docs">The API reference</a> (<code>/docs</code>; the OpenAPI document at
<a href="/openapi.json"><code>/openapi.json</code></a>).</li>
<li><a href="/healthz">Liveness</a> (<code>/healthz</code>) and <a href="/readyz">readiness</a> (<code>/readyz</code>).</li>
</ul>
<p>Guides: docs/partner-guide.md and docs/operator-guide.md in the repository; stuck? docs/troubleshooting.md.</p>
</body>
</html>
`;

/** Serves {@link LANDING_PAGE} at `GET /` (no authentication; not part of the API document). */
export function installLandingPage(app: FastifyInstance): void {
  app.get('/', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(LANDING_PAGE),
  );
}
