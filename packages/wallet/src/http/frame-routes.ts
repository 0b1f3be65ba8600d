import { SignatureVerificationError, verifyCallback } from '@bookie/sdk';
import type { FastifyInstance } from 'fastify';

/** Heartbeats the wallet received (DECISIONS D13, D47), per player (`Foreign-Params.player`), in memory. */
export class HeartbeatLog {
  private readonly byPlayer = new Map<string, { count: number; lastAt: string }>();
  total = 0;

  record(foreignParams: Record<string, unknown>, at = new Date()): void {
    this.total++;
    const player = typeof foreignParams.player === 'string' ? foreignParams.player : '';
    const prev = this.byPlayer.get(player);
    this.byPlayer.set(player, { count: (prev?.count ?? 0) + 1, lastAt: at.toISOString() });
  }

  of(player: string): { count: number; last_at: string | null } {
    const e = this.byPlayer.get(player);
    return { count: e?.count ?? 0, last_at: e?.lastAt ?? null };
  }
}

const TITLES: Record<string, string> = {
  en: 'Bet on the Premier League, live',
  de: 'Live auf die Premier League wetten',
};

function bannerSvg(title: string): string {
  const text = title.replace(/[<>&"]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="728" height="60" viewBox="0 0 728 60"><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#3a0ca3"/><stop offset="1" stop-color="#f72585"/></linearGradient></defs><rect width="728" height="60" rx="8" fill="url(#g)"/><text x="24" y="38" font-family="sans-serif" font-size="22" font-weight="700" fill="#fff">${text}</text></svg>`;
}

/**
 * What the reference wallet answers for the betting frame, as a partner's server would:
 * - heartbeats (`POST /heartbeat`, answered 204 by the callback handler) are counted per player:
 *   `GET /players/{id}/heartbeats` → `{count, last_at}`;
 * - `POST /banners` `{locale, placement, player_id}` (DECISIONS D48, signed like a callback) → `{banners: [...]}`, one
 *   banner per locale, its image served at `GET /banners/{locale}.svg`.
 */
export async function frameRoutes(
  app: FastifyInstance,
  deps: { heartbeats: HeartbeatLog; secrets: readonly string[] },
): Promise<void> {
  app.get<{ Params: { id: string } }>('/players/:id/heartbeats', async (req) =>
    deps.heartbeats.of(req.params.id),
  );
  app.post<{ Body: { locale?: unknown; placement?: unknown } }>('/banners', async (req, reply) => {
    if (deps.secrets.length > 0) {
      try {
        verifyCallback(req.headers, JSON.stringify(req.body ?? {}), deps.secrets);
      } catch (e) {
        if (e instanceof SignatureVerificationError)
          return reply.code(401).send({ error: { code: 'invalid_signature', data: { reason: e.reason } } });
        throw e;
      }
    }
    const locale = typeof req.body?.locale === 'string' && req.body.locale in TITLES ? req.body.locale : 'en';
    const origin = `${req.protocol}://${req.headers.host}`;
    return {
      banners: [
        {
          id: `welcome-${locale}`,
          image_url: `${origin}/banners/${locale}.svg`,
          link_url: 'https://www.football-data.co.uk/',
          title: TITLES[locale],
        },
      ],
    };
  });
  app.get<{ Params: { locale: string } }>('/banners/:locale.svg', async (req, reply) => {
    const title = TITLES[req.params.locale] ?? TITLES.en!;
    return reply.type('image/svg+xml').header('cache-control', 'max-age=300').send(bannerSvg(title));
  });
}
