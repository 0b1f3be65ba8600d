/** Thrown (and given to a vendor callback) when the page's origin is not allowed for the session's white label. */
export class OriginNotAllowedError extends Error {
  readonly code = 'origin_not_allowed';
  constructor(readonly origin: string) {
    super(
      `bookie frame: this site (${origin}) is not in the white label's allowed_origins; the operator or partner adds ` +
        'it (backoffice, admin API or `bookie wl update --allow-origin`)',
    );
    this.name = 'OriginNotAllowedError';
  }
}

/**
 * Asks Bookie whether this page's origin may run the frame for the session of `token` (`POST /frame-api/origin`,
 * the token as a text/plain body: no preflight, and the answer is readable from any origin). A browser hides why a
 * CORS-blocked call failed (a bare TypeError), so this tells "not allowed" apart from "connection lost".
 *
 * @returns false when not allowed; true when allowed; undefined when it cannot tell (network down, token refused:
 *   the frame then starts and its usual reconnect and token handling apply).
 */
export async function originAllowed(apiUrl: string, token: string): Promise<boolean | undefined> {
  try {
    const res = await fetch(`${apiUrl}/frame-api/origin`, { method: 'POST', body: token });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { allowed?: unknown };
    return typeof body.allowed === 'boolean' ? body.allowed : undefined;
  } catch {
    return undefined;
  }
}
