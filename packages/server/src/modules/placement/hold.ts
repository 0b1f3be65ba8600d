import { FINAL_PLACE_ERROR_CODES, type FinalPlaceErrorCode } from '@bookie/contracts';
import type { CallbackSender, CallbackTarget, OutgoingCallback } from '../callbacks/index.js';
import type { PlacementDeps, PlaceRetryPolicy } from './deps.js';

export type { PlaceRetryPolicy };

import type { FormedBet } from './form.js';

/** Outcome of the synchronous `/bet/place` call (DECISIONS D9). */
export type PlaceOutcome =
  | { kind: 'held'; attempts: number; status: number }
  | {
      kind: 'refused';
      attempts: number;
      status: number;
      code: FinalPlaceErrorCode;
      data: Record<string, unknown>;
    }
  | { kind: 'exhausted'; attempts: number; status: number | null; error: string };

/** The default of D9: three attempts of 1.5 s with 0.2 s and 0.3 s pauses (≤ 5 s). */
export const DEFAULT_PLACE_POLICY: PlaceRetryPolicy = {
  attemptTimeoutsMs: [1500, 1500, 1500],
  pausesMs: [200, 300],
};

function finalCode(
  body: string | null,
): { code: FinalPlaceErrorCode; data: Record<string, unknown> } | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; data?: unknown } };
    const code = parsed.error?.code;
    if (typeof code === 'string' && (FINAL_PLACE_ERROR_CODES as readonly string[]).includes(code)) {
      const data = parsed.error?.data;
      return {
        code: code as FinalPlaceErrorCode,
        data: data && typeof data === 'object' ? (data as Record<string, unknown>) : {},
      };
    }
  } catch {
    // not JSON: not a final code; retried
  }
  return undefined;
}

/**
 * Calls the partner's `/bet/place` (the one synchronous step of placement): success is any 2xx (D8); the final
 * codes of D9 end the bet as Place Error; any other answer, a timeout or a network error is retried, the same
 * request_id and bytes each time (D7), until the policy is exhausted.
 */
export async function callPlace(
  sender: CallbackSender,
  target: CallbackTarget,
  cb: OutgoingCallback,
  policy: PlaceRetryPolicy = DEFAULT_PLACE_POLICY,
): Promise<PlaceOutcome> {
  let last: { status: number | null; error: string } = { status: null, error: 'not attempted' };
  const n = policy.attemptTimeoutsMs.length;
  for (let i = 0; i < n; i++) {
    const r = await sender.send(target, cb, policy.attemptTimeoutsMs[i]);
    if (r.ok) return { kind: 'held', attempts: i + 1, status: r.status };
    const fin = r.status !== null && r.status >= 400 && r.status < 500 ? finalCode(r.body) : undefined;
    if (fin && r.status !== null) return { kind: 'refused', attempts: i + 1, status: r.status, ...fin };
    last = { status: r.status, error: r.error };
    const pause = policy.pausesMs[i];
    if (i < n - 1 && pause) await new Promise((res) => setTimeout(res, pause));
  }
  return { kind: 'exhausted', attempts: n, ...last };
}

/** How the hold went, and where the partner's callbacks go (undefined: the target could not be read). */
export type HoldAnswer = PlaceOutcome & { callbackUrl?: string };

/**
 * Step 2, the hold: asks the partner's wallet to hold the stake (`/bet/place`, synchronously, with the D9
 * retries). A callback target that cannot be read counts as exhausted at once, with no attempt.
 */
export async function hold(
  deps: Pick<PlacementDeps, 'callbacks' | 'settings'>,
  formed: Pick<FormedBet, 'session' | 'held'>,
): Promise<HoldAnswer> {
  let callbackUrl: string | undefined;
  try {
    const target = await deps.callbacks.targets.get(formed.session.whiteLabelId);
    callbackUrl = target.url;
    const outcome = await callPlace(
      deps.callbacks.sender,
      target,
      formed.held.place,
      deps.settings.placePolicy ?? DEFAULT_PLACE_POLICY,
    );
    return { ...outcome, callbackUrl };
  } catch (err) {
    return {
      kind: 'exhausted',
      attempts: 0,
      status: null,
      error: err instanceof Error ? err.message : String(err),
      ...(callbackUrl !== undefined ? { callbackUrl } : {}),
    };
  }
}
