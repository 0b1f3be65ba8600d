import { render } from 'preact';
import type { FrameApi, FrameOptions } from '../types.js';
import { FrameStore } from './store.js';
import { App } from './view.js';

function rootOf(r: FrameOptions['rootElement']): HTMLElement {
  const el = typeof r === 'string' ? document.getElementById(r) : r;
  if (!(el instanceof HTMLElement))
    throw new TypeError('Bookie.load: rootElement must be an element or its id');
  return el;
}

/**
 * Mounts the frame (DECISIONS D49): a container element appended to `rootElement` holds a shadow root the app renders
 * into, so the host's CSS cannot reach it; `destroy()` stops the stream and timers and removes the container.
 *
 * @throws TypeError when `token` or `rootElement` is missing.
 */
export async function mount(options: FrameOptions & { apiUrl: string }): Promise<FrameApi> {
  if (typeof options.token !== 'string' || options.token === '')
    throw new TypeError('Bookie.load: token is required');
  const root = rootOf(options.rootElement);
  const host = document.createElement('div');
  host.setAttribute('data-bookie-frame', '');
  root.appendChild(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const store = new FrameStore(options);
  render(<App store={store} />, shadow);
  const started = store.start();
  let destroyed = false;
  const api: FrameApi = {
    updateBettingOptions: (o) => store.updateBettingOptions(o),
    updatePalette: (palette) => store.set({ palette: { ...store.state.palette, ...palette } }),
    selectOddFormat: (f) => store.set({ oddsFormat: f }),
    subscribe: (event, handler) => store.subscribe(event, handler),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      store.destroy();
      render(null, shadow);
      host.remove();
    },
  };
  await started.catch((err) => {
    console.error('bookie frame: could not load', err);
  });
  return api;
}
