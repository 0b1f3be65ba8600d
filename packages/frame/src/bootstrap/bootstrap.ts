/**
 * The bootstrap script a partner's page loads (`<script src="{bookie}/frame/bootstrap.js">`, DECISIONS D49). It
 * defines `window.Bookie.load(options) → Promise<FrameApi>` and, for partners moving over from another vendor,
 * `window.bettingLoader.load(options, callback)` taking that vendor's options and giving its callback that vendor's
 * API (docs/adr/0031-vendor-host-page.md). The app itself (`app.js`, next to this script) is imported on the first
 * load; everything but the loading lives there.
 */
import type {
  FrameApi,
  FrameOptions,
  VendorBettingApi,
  VendorLoadCallback,
  VendorOptions,
} from '../types.js';

interface App {
  mount(o: FrameOptions & { apiUrl: string }): Promise<FrameApi>;
  vendorLoad(o: VendorOptions, cb: VendorLoadCallback | undefined, origin: string): Promise<VendorBettingApi>;
}

const src =
  (document.currentScript as HTMLScriptElement | null)?.src || `${location.origin}/frame/bootstrap.js`;
const origin = new URL(src).origin;
let app: Promise<App> | undefined;
function loadApp(): Promise<App> {
  app ??= import(/* @vite-ignore */ new URL('app.js', src).href);
  return app;
}

const w = window as unknown as Record<string, unknown>;
w.Bookie = {
  load: (options: FrameOptions) => loadApp().then((m) => m.mount({ apiUrl: origin, ...options })),
};
w.bettingLoader = {
  /** The vendor's loader: `callback(api)` once loaded (then `api.init()`), or `callback(null, error)`. */
  load(o: VendorOptions, callback?: VendorLoadCallback) {
    loadApp().then(
      // vendorLoad gives its own errors to the callback
      (m) => m.vendorLoad(o, callback, origin).catch(() => {}),
      (err) => (callback ? callback(null, err) : console.error('bettingLoader', err)),
    );
  },
};
