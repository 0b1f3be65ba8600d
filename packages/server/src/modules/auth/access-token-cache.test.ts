import { describe, expect, it } from 'vitest';
import { whiteLabelChanged } from '../tenants/index.js';
import type { AccessTokenLookup } from './auth.repo.js';
import { cachedAccessTokenLookup } from './authenticate-partner.js';

function lookupOf(whiteLabelId: string): AccessTokenLookup {
  return {
    white_label_id: whiteLabelId,
    credential_id: `cred-${whiteLabelId}`,
    client_id: `client-${whiteLabelId}`,
    expires_at: new Date('2030-01-01T00:00:00Z'),
    revoked_at: null,
    allowlist: ['127.0.0.1'],
  };
}

/** A reader over a table of tokens that counts its reads; the clock is moved by hand. */
function setup(ttlMs: number) {
  const table = new Map<string, AccessTokenLookup>();
  const reads: string[] = [];
  let now = 1_000_000;
  const lookup = cachedAccessTokenLookup(
    { clock: { now: () => now } },
    async (hash) => {
      reads.push(hash);
      return table.get(hash);
    },
    ttlMs,
  );
  const advance = (ms: number): void => {
    now += ms;
  };
  return { table, reads, lookup, advance };
}

describe('the access token cache', () => {
  it('reads a token once within its time, again after it', async () => {
    const s = setup(1000);
    s.table.set('h1', lookupOf('wl-time'));
    expect(await s.lookup('h1')).toEqual(lookupOf('wl-time'));
    s.advance(999);
    expect(await s.lookup('h1')).toEqual(lookupOf('wl-time'));
    expect(s.reads).toEqual(['h1']);
    s.advance(1);
    s.table.set('h1', { ...lookupOf('wl-time'), revoked_at: new Date('2026-01-01T00:00:00Z') });
    expect((await s.lookup('h1'))?.revoked_at).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(s.reads).toEqual(['h1', 'h1']);
  });

  it('reads again at once after its white label changed in this process (a revocation, an allowlist)', async () => {
    const s = setup(60_000);
    s.table.set('h2', lookupOf('wl-changed'));
    s.table.set('h3', lookupOf('wl-other'));
    await s.lookup('h2');
    await s.lookup('h3');
    s.table.set('h2', { ...lookupOf('wl-changed'), allowlist: ['192.0.2.1'] });
    whiteLabelChanged('wl-changed');
    expect((await s.lookup('h2'))?.allowlist).toEqual(['192.0.2.1']);
    // another white label's token is still served from memory
    await s.lookup('h3');
    expect(s.reads).toEqual(['h2', 'h3', 'h2']);
  });

  it('does not keep what a read found when its white label changed while the read ran', async () => {
    const table = new Map([['h4', lookupOf('wl-race')]]);
    let reads = 0;
    const lookup = cachedAccessTokenLookup(
      { clock: { now: () => 5 } },
      async (hash) => {
        reads++;
        const found = table.get(hash);
        // the change commits while this read is answered
        whiteLabelChanged('wl-race');
        return found;
      },
      60_000,
    );
    await lookup('h4');
    await lookup('h4');
    expect(reads).toBe(2);
  });

  it('does not keep an unknown token (one issued later is found), and reads every time with 0', async () => {
    const s = setup(1000);
    expect(await s.lookup('h5')).toBeUndefined();
    s.table.set('h5', lookupOf('wl-new'));
    expect(await s.lookup('h5')).toEqual(lookupOf('wl-new'));
    expect(s.reads).toEqual(['h5', 'h5']);

    const none = setup(0);
    none.table.set('h6', lookupOf('wl-none'));
    await none.lookup('h6');
    await none.lookup('h6');
    expect(none.reads).toEqual(['h6', 'h6']);
  });
});
