import { randomUUID } from 'node:crypto';
import { BANNERS_CALLBACK_PATH, UNSUPPORTED_CALLBACK_STATUSES } from '@bookie/contracts';
import { request } from 'undici';
import { learnUnsupportedNow, supportsCallback } from '../tenants/index.js';
import type { FrameDeps } from './deps.js';

/** A banner of the partner (D48). */
export interface Banner {
  id: string;
  image_url: string;
  link_url: string;
  title: string;
}

function isHttpUrl(s: unknown): s is string {
  if (typeof s !== 'string' || s.length > 2000) return false;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Keeps the well-formed banners of a partner answer (http(s) URLs, string id and title); drops the rest. */
export function parseBanners(body: unknown): Banner[] {
  const list = (body as { banners?: unknown })?.banners;
  if (!Array.isArray(list)) return [];
  const out: Banner[] = [];
  for (const b of list.slice(0, 20)) {
    const x = b as Record<string, unknown>;
    if (typeof x?.id !== 'string' || !isHttpUrl(x.image_url) || !isHttpUrl(x.link_url)) continue;
    out.push({
      id: x.id,
      image_url: x.image_url,
      link_url: x.link_url,
      title: String(x.title ?? '').slice(0, 200),
    });
  }
  return out;
}

/**
 * The partner's banners for a frame (DECISIONS D48): `POST {callback}/banners` `{locale, placement, player_id}`,
 * signed like a callback (D11), answered 200 `{banners: [...]}`; kept per white label, locale and placement for
 * `BANNER_CACHE_S`. Any failure (no callback server, error, timeout, bad body) shows no banner and is not cached.
 * A white label whose banners are not supported (announced `false`, or answered 404/405/501 since it last announced
 * them) is not asked; such an answer teaches Bookie that it has none (the optional callbacks rule, audited).
 */
export function bannerSource(
  deps: Pick<FrameDeps, 'targets' | 'clock' | 'settings' | 'logger' | 'whiteLabels' | 'database'>,
) {
  const cache = new Map<string, { at: number; banners: Banner[] }>();
  return async function getBanners(input: {
    whiteLabelId: string;
    locale: string;
    placement: string;
    playerId: string;
  }): Promise<Banner[]> {
    const key = `${input.whiteLabelId}\u0000${input.locale}\u0000${input.placement}`;
    const now = deps.clock.now();
    const hit = cache.get(key);
    if (hit && now - hit.at < deps.settings.bannerCacheS * 1000) return hit.banners;
    try {
      if (!supportsCallback(await deps.whiteLabels.get(input.whiteLabelId), 'banners')) return [];
      const target = await deps.targets.get(input.whiteLabelId);
      const body = JSON.stringify({
        locale: input.locale,
        placement: input.placement,
        player_id: input.playerId,
      });
      const res = await request(`${target.url.replace(/\/$/, '')}${BANNERS_CALLBACK_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...target.sign(randomUUID(), body) },
        body,
        signal: AbortSignal.timeout(2000),
      });
      const text = await res.body.text();
      if (UNSUPPORTED_CALLBACK_STATUSES.has(res.statusCode)) {
        await learnUnsupportedNow(deps.database.db, {
          whiteLabelId: input.whiteLabelId,
          callback: 'banners',
          status: res.statusCode,
          at: new Date(now),
        });
        return [];
      }
      if (res.statusCode !== 200) return [];
      const banners = parseBanners(JSON.parse(text));
      if (cache.size > 10_000) cache.clear();
      cache.set(key, { at: now, banners });
      return banners;
    } catch (err) {
      deps.logger.debug({ err }, 'banners unavailable');
      return [];
    }
  };
}
