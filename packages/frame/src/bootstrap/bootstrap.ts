/**
 * The bootstrap script a partner's page loads (`<script src="{bookie}/frame/bootstrap.js">`, DECISIONS D49). It
 * defines `window.Bookie.load(options) → Promise<FrameApi>` and, for partners moving over from another vendor,
 * `window.bettingLoader.load(options, callback)` with that vendor's option names (`url` for the API address). The
 * app itself (`app.js`, next to this script) is imported on the first load.
 */
import type { FrameApi, FrameOptions } from '../types.js';

interface VendorOptions {
  token: string;
  rootElement: HTMLElement | string;
  locale?: string;
  currency?: string;
  url?: string;
  [k: string]: unknown;
}

const src =
  (document.currentScript as HTMLScriptElement | null)?.src || `${location.origin}/frame/bootstrap.js`;
const base = new URL('.', src).href;
let app: Promise<{ mount(o: FrameOptions): Promise<FrameApi> }> | undefined;

function load(options: FrameOptions): Promise<FrameApi> {
  app ??= import(/* @vite-ignore */ `${base}app.js`);
  return app.then((m) => m.mount({ apiUrl: new URL(src).origin, ...options }));
}

const w = window as unknown as Record<string, unknown>;
w.Bookie = { load };
w.bettingLoader = {
  /** The vendor's loader: `callback(api)` once loaded, or `callback(null, error)`. */
  load(o: VendorOptions, callback?: (api: FrameApi | null, error?: unknown) => void) {
    const { url, ...rest } = o;
    load({ ...rest, ...(url ? { apiUrl: url } : {}) } as FrameOptions).then(
      (api) => callback?.(api),
      (err) => (callback ? callback(null, err) : console.error('bettingLoader', err)),
    );
  },
};
