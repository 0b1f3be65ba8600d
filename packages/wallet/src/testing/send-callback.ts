/**
 * Sends callbacks to a wallet as Bookie does (D7 headers, D11 signature when a secret is given), for tests.
 *
 * @packageDocumentation
 */
import type { CallbackBodies, CallbackName } from '@bookie/contracts';
import { prepareCallback } from '@bookie/sdk/callbacks/fixtures';

/** A callback's answer. */
export interface CallbackAnswer {
  status: number;
  body: string;
  headers: Headers;
}

/** POSTs callback `name` with `body` to `baseUrl`; resolves to the answer. */
export async function sendCallback<K extends CallbackName>(
  baseUrl: string,
  name: K,
  body: CallbackBodies[K],
  options: { secret?: string; foreignParams?: Record<string, unknown> } = {},
): Promise<CallbackAnswer> {
  const p = prepareCallback(name, body, options);
  const res = await fetch(`${baseUrl}${p.path}`, { method: 'POST', headers: p.headers, body: p.body });
  return { status: res.status, body: await res.text(), headers: res.headers };
}
