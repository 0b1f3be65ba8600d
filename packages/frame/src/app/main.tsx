import type { FrameApi, FrameOptions } from '../types.js';
import { mountFrame } from './mount.js';

export { OriginNotAllowedError } from './origin.js';
export { vendorLoad } from './vendor.js';

/**
 * `window.Bookie.load` behind the bootstrap (DECISIONS D49): mounts the frame and resolves to its API once the first
 * loads are done; `destroy()` stops the stream and timers and removes everything the frame added.
 *
 * @throws TypeError when `token` or `rootElement` is missing; RangeError for an unknown `oddsFormat`;
 *   OriginNotAllowedError when the page's origin is not allowed for the session's white label (a message saying so
 *   is shown in `rootElement`).
 */
export async function mount(options: FrameOptions & { apiUrl: string }): Promise<FrameApi> {
  return (await mountFrame(options)).api;
}
