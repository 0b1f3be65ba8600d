import { validationError } from '@bookie/core';

/**
 * Validates the web origins a white label allows to embed the betting frame (CORS, DECISIONS D49) and returns them
 * normalised (`new URL(x).origin`: lower-case scheme and host, no default port), without duplicates. An entry must be
 * an http or https origin with nothing after the host and port (a trailing `/` is accepted).
 *
 * @throws DomainError validation_error naming `allowed_origins[i]`.
 */
export function parseAllowedOrigins(entries: readonly string[]): string[] {
  const out: string[] = [];
  entries.forEach((raw, i) => {
    const field = `allowed_origins[${i}]`;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw validationError(field, `not an origin like "https://casino.example": "${raw}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw validationError(field, `must be http or https, got "${url.protocol}"`);
    if (
      url.username ||
      url.password ||
      url.search ||
      url.hash ||
      url.pathname !== '/' ||
      /\/.+/.test(raw.replace(/^[a-z]+:\/\//i, ''))
    )
      throw validationError(field, `must be an origin only (scheme, host, port), got "${raw}"`);
    if (!out.includes(url.origin)) out.push(url.origin);
  });
  return out;
}
