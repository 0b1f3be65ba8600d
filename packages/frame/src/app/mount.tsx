import { render } from 'preact';
import type { FrameApi, FrameOptions } from '../types.js';
import { t } from './i18n.js';
import { oddsFormatOf } from './odds.js';
import { OriginNotAllowedError, originAllowed } from './origin.js';
import { FrameStore } from './store.js';
import { CSS, paletteVars } from './styles.js';
import { App } from './view.js';

/**
 * The host's container: an element, or the id of one. An id not in the page yet (a host script that runs before
 * its container is parsed) is looked up again once the document is parsed.
 *
 * @throws TypeError when there is no such element.
 */
export async function rootOf(r: FrameOptions['rootElement']): Promise<HTMLElement> {
  const find = () => (typeof r === 'string' ? document.getElementById(r) : r);
  let el = find();
  if (!el && typeof r === 'string' && document.readyState === 'loading') {
    await new Promise((done) => document.addEventListener('DOMContentLoaded', done, { once: true }));
    el = find();
  }
  if (!(el instanceof HTMLElement))
    throw new TypeError(
      `Bookie.load: rootElement must be an element or its id${typeof r === 'string' ? ` (no element with id "${r}")` : ''}`,
    );
  return el;
}

/** A container appended to `root` with an open shadow root: the host's CSS cannot reach what renders inside. */
function attach(root: HTMLElement): { host: HTMLElement; shadow: ShadowRoot } {
  const host = document.createElement('div');
  host.setAttribute('data-bookie-frame', '');
  root.appendChild(host);
  return { host, shadow: host.attachShadow({ mode: 'open' }) };
}

/** Shows, in place of the frame, that this site may not run it (it stays: the host gets no API to remove it). */
export function showNotAllowed(root: HTMLElement, options: FrameOptions, origin: string): void {
  const { shadow } = attach(root);
  const locale = options.locale ?? 'en';
  render(
    <div class="bk" style={paletteVars(options.palette ?? {})} lang={locale} data-testid="frame">
      <style>{CSS}</style>
      <div class="msg no" role="alert" data-testid="origin-not-allowed">
        {t(locale, 'origin.notAllowed', { origin })}
      </div>
    </div>,
    shadow,
  );
}

/** A mounted frame: the host's API, the store behind it, and when its first loads are done. */
export interface MountedFrame {
  api: FrameApi;
  store: FrameStore;
}

/**
 * Mounts the frame (DECISIONS D49) into a shadow root inside `rootElement`. First it asks Bookie whether this page's
 * origin is allowed for the session's white label: when it is not, a message saying so is shown in the container and
 * the mount rejects with {@link OriginNotAllowedError} (never an endless "reconnecting"). `onCreated` is called as
 * soon as the store exists (before the first loads end), so a caller can pass on settings made meanwhile.
 *
 * @throws TypeError when `token` or `rootElement` is missing; RangeError for an unknown `oddsFormat`;
 *   OriginNotAllowedError.
 */
export async function mountFrame(
  options: FrameOptions & { apiUrl: string },
  onCreated?: (m: MountedFrame) => void,
): Promise<MountedFrame> {
  if (typeof options.token !== 'string' || options.token === '')
    throw new TypeError('Bookie.load: token is required');
  const oddsFormat = options.oddsFormat === undefined ? undefined : oddsFormatOf(options.oddsFormat);
  const root = await rootOf(options.rootElement);
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  if ((await originAllowed(apiUrl, options.token)) === false) {
    showNotAllowed(root, options, location.origin);
    throw new OriginNotAllowedError(location.origin);
  }
  const { host, shadow } = attach(root);
  // the store reads the options it is given later too (getBanners), so it keeps this object
  const store = new FrameStore(Object.assign(options, oddsFormat ? { oddsFormat } : {}));
  render(<App store={store} />, shadow);
  const started = store.start();
  let destroyed = false;
  const api: FrameApi = {
    updateBettingOptions: (o) => store.updateBettingOptions(o),
    updatePalette: (palette) => store.set({ palette: { ...store.state.palette, ...palette } }),
    selectOddFormat: (f) => store.set({ oddsFormat: oddsFormatOf(f) }),
    navigate: (path) => store.navigate(path),
    setQuickBet: (stake) => store.setQuickBet(stake),
    subscribe: (event, handler) => store.subscribe(event, handler),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      store.destroy();
      render(null, shadow);
      host.remove();
    },
  };
  const mounted = { api, store };
  onCreated?.(mounted);
  await started.catch((err) => {
    console.error('bookie frame: could not load', err);
  });
  return mounted;
}
