import type {
  FrameBanner,
  FrameEventName,
  FrameOptions,
  Palette,
  VendorBettingApi,
  VendorLoadCallback,
  VendorOptions,
  VendorRedirect,
} from '../types.js';
import { type MountedFrame, mountFrame, rootOf, showNotAllowed } from './mount.js';
import { oddsFormatOf } from './odds.js';
import { OriginNotAllowedError, originAllowed } from './origin.js';

const ABSOLUTE = /^([a-z][a-z0-9+.-]*:)?\/\//i;

/**
 * Bookie's base URL from the vendor's `url` option (docs/adr/0031-vendor-host-page.md):
 * - a string: that URL (resolved against the page), as `apiUrl`;
 * - the vendor's object `{gqlEndpoint, bettingPath, pagePath, staticEndpoint}`: the origin of `gqlEndpoint` when it
 *   is absolute (`https://…` or `//host…`), else the origin the bootstrap script came from; `bettingPath`,
 *   `pagePath` and `staticEndpoint` are not needed by Bookie and are ignored;
 * - missing: the bootstrap script's origin.
 *
 * @throws TypeError naming `url` or `url.gqlEndpoint` when it is not a URL.
 */
export function apiBaseOf(url: unknown, scriptOrigin: string, pageHref: string): string {
  const parse = (raw: string, field: string) => {
    try {
      return new URL(raw, pageHref);
    } catch {
      throw new TypeError(`bettingLoader.load: ${field} is not a URL: ${JSON.stringify(raw)}`);
    }
  };
  if (url === undefined || url === null || url === '') return scriptOrigin;
  if (typeof url === 'string') return parse(url, 'url').href.replace(/\/+$/, '');
  if (typeof url !== 'object') throw new TypeError('bettingLoader.load: url must be a string or an object');
  const gql = (url as { gqlEndpoint?: unknown }).gqlEndpoint;
  if (typeof gql === 'string' && ABSOLUTE.test(gql)) return parse(gql, 'url.gqlEndpoint').origin;
  return scriptOrigin;
}

/** The vendor's palette keys (its example host page) → the frame's; the frame's own keys are taken as they are. */
const PALETTE_KEYS: Record<string, keyof Palette> = {
  primaryColor: 'background',
  primaryText: 'text',
  primaryAccent: 'accent',
  secondaryColor: 'surface',
  secondaryText: 'muted',
};
const OWN_KEYS = new Set<string>([
  'background',
  'surface',
  'text',
  'muted',
  'accent',
  'accentText',
  'positive',
  'negative',
]);

/** A palette in the vendor's keys (or the frame's) → the frame's {@link Palette}; other keys and non-strings ignored. */
export function paletteOf(p: unknown): Palette {
  const out: Palette = {};
  if (typeof p !== 'object' || p === null) return out;
  for (const [k, v] of Object.entries(p)) {
    const key = PALETTE_KEYS[k] ?? (OWN_KEYS.has(k) ? (k as keyof Palette) : undefined);
    if (key && typeof v === 'string' && v !== '') out[key] = v;
  }
  return out;
}

/** Banners a host's `getBanners` gave, in the frame's shape; entries without an image are left out. */
export function bannersOf(list: unknown): FrameBanner[] {
  if (!Array.isArray(list)) return [];
  const str = (...vs: unknown[]) => vs.find((v): v is string => typeof v === 'string' && v !== '');
  return list.flatMap((b, i) => {
    if (typeof b !== 'object' || b === null) return [];
    const x = b as Record<string, unknown>;
    const image = str(x.image_url, x.imageUrl, x.image, x.src);
    if (!image) return [];
    return [
      {
        id: str(x.id) ?? String(i),
        image_url: image,
        link_url: str(x.link_url, x.linkUrl, x.link, x.url, x.href) ?? '',
        title: str(x.title, x.alt, x.name) ?? '',
      },
    ];
  });
}

/** The vendor's loader options → Bookie's (`url` → `apiUrl`; keys Bookie does not use are dropped). */
export function optionsOf(
  o: VendorOptions,
  scriptOrigin: string,
  pageHref: string,
): FrameOptions & { apiUrl: string } {
  if (typeof o !== 'object' || o === null) throw new TypeError('bettingLoader.load: options are required');
  return {
    token: o.token,
    rootElement: o.rootElement,
    ...(typeof o.locale === 'string' ? { locale: o.locale } : {}),
    ...(typeof o.currency === 'string' ? { currency: o.currency } : {}),
    ...(o.oddsFormat !== undefined ? { oddsFormat: oddsFormatOf(o.oddsFormat) } : {}),
    ...(o.palette !== undefined ? { palette: paletteOf(o.palette) } : {}),
    ...(typeof o.route === 'string' ? { route: o.route } : {}),
    apiUrl: apiBaseOf(o.url, scriptOrigin, pageHref),
  };
}

/** The frame's events a vendor page can subscribe to: `redirect`, and Bookie's own (D49). */
const OWN_EVENTS = new Set<string>([
  'bet_placed',
  'bet_settled',
  'login_required',
  'balance_changed',
  'route_changed',
]);

/**
 * The vendor's betting API over the frame: settings made before `init()` are kept and applied when it mounts;
 * `init()` mounts once (later calls return the same promise; after a failure it may be called again).
 */
export function vendorApi(options: FrameOptions & { apiUrl: string }): VendorBettingApi {
  const handlers = new Map<FrameEventName, Set<(p: unknown) => void>>();
  let mounted: MountedFrame | undefined;
  let started: Promise<void> | undefined;
  let destroyed = false;
  const on = (event: FrameEventName, fn: (p: unknown) => void) => {
    const set = handlers.get(event) ?? new Set();
    handlers.set(event, set);
    set.add(fn);
    return () => void set.delete(fn);
  };
  return {
    registerCallbacks(callbacks) {
      const get = callbacks?.getBanners;
      if (typeof get !== 'function') return;
      options.getBanners = async ({ locale }) => bannersOf(await get(locale));
      void mounted?.store.loadBanners().catch(() => {});
    },
    selectOddFormat(name) {
      const f = oddsFormatOf(name);
      options.oddsFormat = f;
      mounted?.api.selectOddFormat(f);
    },
    subscribe(event: string, fn: (p: VendorRedirect) => void) {
      if (typeof fn !== 'function') throw new TypeError('subscribe: the handler must be a function');
      // the session ended or was refused and no new token came: the vendor's page sends the player to log in
      if (event === 'redirect') return on('login_required', () => fn({ destination: 'login', link: null }));
      if (OWN_EVENTS.has(event)) return on(event as FrameEventName, fn as (p: unknown) => void);
      console.warn(`bookie frame: no event "${event}" (events: redirect, ${[...OWN_EVENTS].join(', ')})`);
      return () => {};
    },
    init() {
      if (destroyed) return Promise.reject(new Error('bookie frame: init() after destroy()'));
      started ??= mountFrame(options, (m) => {
        mounted = m;
        for (const name of OWN_EVENTS)
          m.api.subscribe(name as FrameEventName, (p) => {
            for (const fn of handlers.get(name as FrameEventName) ?? []) fn(p);
          });
      }).then(
        () => {
          if (destroyed) mounted?.api.destroy();
        },
        (err) => {
          started = undefined;
          throw err;
        },
      );
      return started;
    },
    navigate(path) {
      if (mounted) return mounted.api.navigate(path);
      options.route = path;
    },
    updatePalette(p) {
      const palette = paletteOf(p);
      options.palette = { ...options.palette, ...palette };
      mounted?.api.updatePalette(palette);
    },
    async updateBettingOptions(o) {
      const next = {
        ...(typeof o?.token === 'string' && o.token !== '' ? { token: o.token } : {}),
        ...(typeof o?.locale === 'string' ? { locale: o.locale } : {}),
        ...(typeof o?.currency === 'string' ? { currency: o.currency } : {}),
      };
      if (mounted) return mounted.api.updateBettingOptions(next);
      Object.assign(options, next);
    },
    destroy() {
      destroyed = true;
      mounted?.api.destroy();
    },
  };
}

/**
 * `window.bettingLoader.load(options, callback)` behind the bootstrap: the vendor's options as they are; checks that
 * this page's origin is allowed, then calls `callback(api)` (the page then calls `init()`), or `callback(null, error)`
 * — an OriginNotAllowedError also shows its message in the container.
 */
export async function vendorLoad(
  o: VendorOptions,
  callback: VendorLoadCallback | undefined,
  scriptOrigin: string,
): Promise<VendorBettingApi> {
  let api: VendorBettingApi;
  try {
    const options = optionsOf(o, scriptOrigin, location.href);
    if (typeof options.token !== 'string' || options.token === '')
      throw new TypeError('bettingLoader.load: token is required');
    if ((await originAllowed(options.apiUrl, options.token)) === false) {
      const refused = new OriginNotAllowedError(location.origin);
      const root = await rootOf(options.rootElement).catch(() => undefined);
      if (root) showNotAllowed(root, options, location.origin);
      throw refused;
    }
    api = vendorApi(options);
  } catch (err) {
    if (callback) callback(null, err);
    else console.error('bettingLoader', err);
    throw err;
  }
  callback?.(api);
  return api;
}
