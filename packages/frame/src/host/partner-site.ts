import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BookieClient } from '@bookie/sdk';

/** Options of {@link startPartnerSite}. */
export interface PartnerSiteOptions {
  /** Bookie's base URL (the frame's bootstrap script and API). */
  bookieUrl: string;
  /** The partner's wallet (balances shown on the page). */
  walletUrl: string;
  /** The partner's OAuth client credentials at Bookie (its backend makes the players' session tokens). */
  clientId: string;
  clientSecret: string;
  /** The player logged in on the site (the demo's seeded player). */
  playerId: string;
  currency: string;
  /** 0 = any free port. */
  port?: number;
  host?: string;
}

/** A running partner site. */
export interface PartnerSite {
  /** Its origin, e.g. `http://127.0.0.1:8091`: add it to the white label's `allowed_origins`. */
  url: string;
  stop(): Promise<void>;
}

const esc = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(o: PartnerSiteOptions): string {
  const cfg = JSON.stringify({ bookieUrl: o.bookieUrl, player: o.playerId, currency: o.currency }).replace(
    /</g,
    '\\u003c',
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Partner casino — Bookie betting frame demo</title>
<style>
  /* the partner's own CSS: deliberately hostile, the frame's shadow root keeps it out */
  body{margin:0;font-family:Georgia,serif;background:#f4f1ea;color:#222}
  button,div,span,b{font-size:30px!important;color:red}
  header{display:flex;gap:16px;align-items:center;padding:10px 16px;background:#222;color:#fff}
  header *{font-size:15px!important;color:#fff}
  main{max-width:1100px;margin:0 auto;padding:12px}
  header select{margin-left:8px;color:#222!important}
</style></head>
<body>
<header><strong>Partner casino</strong><span>player <b id="player"></b></span>
<span>balance <b id="balance" data-testid="balance">…</b></span>
<label>language<select id="locale"><option value="en">English</option><option value="de">Deutsch</option><option value="ar">العربية</option></select></label>
</header>
<main><div id="betting"></div></main>
<script>
  const cfg = ${cfg};
  const q = new URLSearchParams(location.search);
  document.getElementById('player').textContent = cfg.player;
  async function session() {
    const r = await fetch('/session', { method: 'POST' });
    if (!r.ok) throw new Error('session: HTTP ' + r.status);
    return (await r.json()).token;
  }
  async function balance() {
    const r = await fetch('/balance');
    if (r.ok) document.getElementById('balance').textContent = (await r.json()).text;
  }
  window.hostEvents = [];
  const s = document.createElement('script');
  s.src = cfg.bookieUrl + '/frame/bootstrap.js';
  s.onload = async () => {
    window.frameApi = await window.Bookie.load({
      token: await session(),
      rootElement: document.getElementById('betting'),
      locale: q.get('locale') || 'en',
      currency: cfg.currency,
      oddsFormat: q.get('odds') || 'decimal',
      route: q.get('route') || undefined,
      quickBet: q.get('quick') || undefined,
      palette: q.get('light') ? { background: '#ffffff', surface: '#eef2f6', text: '#10202f', muted: '#5b6b7b', accent: '#0b6bcb', accentText: '#fff' } : undefined,
      onTokenExpired: () => { window.hostEvents.push('token_renewed'); return session(); },
    });
    for (const e of ['bet_placed', 'bet_settled', 'login_required', 'balance_changed', 'route_changed'])
      window.frameApi.subscribe(e, (p) => { window.hostEvents.push(e); if (e === 'balance_changed') balance(); });
    document.getElementById('locale').value = q.get('locale') || 'en';
    document.getElementById('locale').onchange = (ev) => window.frameApi.updateBettingOptions({ locale: ev.target.value });
  };
  document.head.appendChild(s);
  balance();
  setInterval(balance, 3000);
</script>
</body></html>`;
}

/**
 * A partner's website for the demo and the browser tests, on its own origin: a page that embeds the betting frame
 * with the bootstrap script (D49), and the two backend calls such a site has: `POST /session` makes a session token
 * for its logged-in player with the partner's credentials (the frame's `onTokenExpired` asks it again), and
 * `GET /balance` reads the player's balance from the partner's wallet.
 */
export async function startPartnerSite(o: PartnerSiteOptions): Promise<PartnerSite> {
  const bookie = new BookieClient({
    baseUrl: o.bookieUrl,
    clientId: o.clientId,
    clientSecret: o.clientSecret,
  });
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(page(o));
    }
    if (path === '/favicon.ico') return res.writeHead(204).end();
    if (req.method === 'POST' && path === '/session') {
      const { token } = await bookie.createPlayerToken({
        locale: 'en',
        currency: o.currency,
        player_id: o.playerId,
        params: { player: o.playerId, currency: o.currency },
      });
      return json(res, 200, { token });
    }
    if (req.method === 'GET' && path === '/balance') {
      const r = await fetch(`${o.walletUrl}/players/${encodeURIComponent(o.playerId)}/balance`);
      const b = (await r.json()) as { balances: { currency: string; available: string; held: string }[] };
      const mine = b.balances.find((x) => x.currency === o.currency);
      const text = mine ? `${mine.available} ${o.currency} (held ${mine.held})` : `0 ${o.currency}`;
      return json(res, 200, { ...mine, text: esc(text) });
    }
    json(res, 404, { error: 'not found' });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err) =>
      json(res, 502, { error: String(err instanceof Error ? err.message : err) }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${o.host ?? '127.0.0.1'}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
