import type { FrameOriginCheck } from '@bookie/contracts';
import type { PlatformServices } from '../../platform/services.js';
import { authenticatePlayer } from '../auth/index.js';
import type { FrameDeps } from './deps.js';

/**
 * Whether a page on `origin` may run the betting frame for the session of `token` (DECISIONS D49): the same rule
 * `checkSessionOrigin` (frame-cors.ts) applies to every frame route — no `Origin` (not a cross-origin browser call) or an
 * origin in the session's white label's `allowed_origins`.
 *
 * @throws DomainError unauthorized when the token is not an open session.
 */
export async function checkFrameOrigin(
  deps: Pick<PlatformServices, 'database' | 'clock'> & Pick<FrameDeps, 'whiteLabels'>,
  input: { token: string; origin: string | undefined },
): Promise<FrameOriginCheck> {
  const session = await authenticatePlayer(deps, { token: input.token.trim() });
  if (input.origin === undefined) return { origin: null, allowed: true };
  const wl = await deps.whiteLabels.get(session.whiteLabelId);
  return { origin: input.origin, allowed: wl.allowedOrigins.includes(input.origin) };
}
