/**
 * The backoffice's only way to the server: its REST API, with the session cookie (sent by the browser, same
 * origin), the CSRF token on every change, and — for an operator user acting on a white label's partner
 * operations — the `X-White-Label-Id` header.
 */

/** The logged-in user. */
export interface User {
  id: string;
  email: string;
  role: 'operator' | 'partner_admin' | 'partner_viewer';
  white_label_id: string | null;
}

/** The current session. */
export interface Session {
  user: User;
  csrf_token: string;
  expires_at: string;
}

/** An error answer of the API (`{"error": {code, message, details}}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrf = '';
let whiteLabel = '';

/** Remembers the session's CSRF token (sent as `X-CSRF-Token` on every change). */
export function setCsrf(token: string): void {
  csrf = token;
}

/** The white label an operator user is acting on (sent as `X-White-Label-Id`). */
export function setWhiteLabel(id: string): void {
  whiteLabel = id;
}

/** The white label in use. */
export function currentWhiteLabel(): string {
  return whiteLabel;
}

/** One API call; JSON in and out. Throws {@link ApiError} on an error answer. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrf;
  if (whiteLabel) headers['x-white-label-id'] = whiteLabel;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) {
    let code = 'error';
    let message = `${res.status} ${res.statusText}`;
    try {
      const e = JSON.parse(text) as { error?: { code?: string; message?: string } };
      code = e.error?.code ?? code;
      message = e.error?.message ?? message;
    } catch {
      // not JSON
    }
    throw new ApiError(res.status, code, message);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The query string of the defined values. */
export function qs(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Downloads a report as CSV through the API (the session cookie authorises it) and saves it as a file. */
export async function downloadCsv(path: string, filename: string): Promise<void> {
  const headers: Record<string, string> = {};
  if (whiteLabel) headers['x-white-label-id'] = whiteLabel;
  const res = await fetch(path, { headers, credentials: 'same-origin' });
  if (!res.ok) throw new ApiError(res.status, 'error', await res.text());
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}
