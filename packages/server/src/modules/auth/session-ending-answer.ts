/**
 * The callback error codes that end a player's session (the sessions rule: a session ends only when the partner says
 * so): `auth_session_unknown` and `auth_credentials_expired` in an error answer `{"error": {"code": …}}`, from any
 * white label, to any callback.
 */
export const SESSION_ENDING_CODES: ReadonlySet<string> = new Set([
  'auth_session_unknown',
  'auth_credentials_expired',
]);

/** The `error.code` of a callback's error answer, when the body is one (`{"error": {"code": string}}`). */
export function errorCodeOf(body: string | null | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** True when a callback's error answer ends the player's session (its code is one of {@link SESSION_ENDING_CODES}). */
export function answerEndsSession(body: string | null | undefined): boolean {
  const code = errorCodeOf(body);
  return code !== undefined && SESSION_ENDING_CODES.has(code);
}
