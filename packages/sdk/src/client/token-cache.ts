import type { OAuthTokenResponse } from '@bookie/contracts/tenancy';

/** A cached access token and when to stop using it (unix ms). */
export interface CachedToken {
  accessToken: string;
  /** Unix ms after which the token is refreshed (its expiry minus the refresh margin). */
  refreshAt: number;
}

/**
 * Caches the OAuth access token (the partner tokens rule): one fetch at a time (concurrent callers share it), reused until
 * `refreshAt`, which is the expiry less `refreshMarginSeconds` (at most half the lifetime), so a token is
 * replaced before it expires.
 */
export class TokenCache {
  #token: CachedToken | undefined;
  #inflight: Promise<string> | undefined;

  constructor(
    private readonly fetchToken: () => Promise<OAuthTokenResponse>,
    private readonly now: () => number,
    private readonly refreshMarginSeconds: number,
  ) {}

  /** A valid access token, fetching one when none is cached or the cached one is due for refresh. */
  async get(): Promise<string> {
    const t = this.#token;
    if (t && this.now() < t.refreshAt) return t.accessToken;
    if (!this.#inflight) {
      this.#inflight = (async () => {
        try {
          const res = await this.fetchToken();
          const lifetime = Math.max(0, res.expires_in);
          const margin = Math.min(this.refreshMarginSeconds, lifetime / 2);
          this.#token = { accessToken: res.access_token, refreshAt: this.now() + (lifetime - margin) * 1000 };
          return res.access_token;
        } finally {
          this.#inflight = undefined;
        }
      })();
    }
    return this.#inflight;
  }

  /** Forgets the cached token (after a 401, say) so the next {@link get} fetches a new one. */
  invalidate(token?: string): void {
    if (token === undefined || this.#token?.accessToken === token) this.#token = undefined;
  }
}
