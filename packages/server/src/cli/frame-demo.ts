import { ensureFrameBuilt } from '@bookie/frame/build';
import { type PartnerSite, startPartnerSite } from '@bookie/frame/host/partner-site';
import { BookieClient } from '@bookie/sdk';
import type { ReplayPlatform } from './replay.js';

/** The player a newcomer plays as on the demo's partner site. */
export const DEMO_PLAYER = 'guest';

/** The partner site of a demo platform, and the player it logs in. */
export interface FrameDemo {
  site: PartnerSite;
  playerId: string;
}

async function call(url: string, token: string, method: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
}

/**
 * The betting frame on a running replay platform, as a partner embeds it (docs/adr/0020-betting-frame.md): builds the
 * frame when its build is missing or stale, gives the seeded player money at the wallet and a 5 EUR freebet for
 * singles, starts the partner's site on its own origin (`sitePort`, 0 = any) and allows that origin on the white
 * label (`allowed_origins`, CORS).
 */
export async function startFrameDemo(
  p: ReplayPlatform,
  opts: { sitePort?: number; playerId?: string; deposit?: string; currency?: string } = {},
): Promise<FrameDemo> {
  await ensureFrameBuilt();
  const playerId = opts.playerId ?? DEMO_PLAYER;
  const currency = opts.currency ?? 'EUR';
  await call(`${p.walletUrl}/players/${encodeURIComponent(playerId)}/deposits`, p.walletAdminToken, 'POST', {
    currency,
    amount: opts.deposit ?? '1000',
    reference: `frame-demo-${playerId}`,
  });
  const site = await startPartnerSite({
    bookieUrl: p.bookieUrl,
    walletUrl: p.walletUrl,
    clientId: p.clientId,
    clientSecret: p.clientSecret,
    playerId,
    currency,
    port: opts.sitePort ?? 0,
  });
  try {
    await call(`${p.bookieUrl}/admin/white-labels/${p.whiteLabelId}`, p.adminToken, 'PATCH', {
      allowed_origins: [site.url],
    });
    // a welcome freebet for singles, to show the bet slip's bonuses
    const partner = new BookieClient({
      baseUrl: p.bookieUrl,
      clientId: p.clientId,
      clientSecret: p.clientSecret,
    });
    await call(`${p.bookieUrl}/freebet/create`, await partner.accessToken(), 'POST', {
      player_id: playerId,
      currency_code: currency,
      amount: '5',
      conditions: [{ type: 'bet_details', data: { bet_details: [{ type: 'single', data: {} }] } }],
      idempotence_id: `frame-demo-welcome-${playerId}`,
    });
  } catch (err) {
    await site.stop();
    throw err;
  }
  return { site, playerId };
}
