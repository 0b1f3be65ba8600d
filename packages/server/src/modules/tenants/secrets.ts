import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Random identifiers, secrets and tokens of tenancy, and their hashes (docs/adr/0005-tenancy.md).
 * Every secret is 256 bits from the OS CSPRNG; what the database keeps is its SHA-256 (a slow hash such as
 * scrypt adds nothing for secrets with 256 bits of entropy, and would cost on every token check).
 */

/** Prefixes make the kind of a leaked string recognisable (and greppable by secret scanners). */
export const PREFIX = {
  clientId: 'bkc_',
  clientSecret: 'bksec_',
  accessToken: 'bkat_',
  sessionToken: 'bkst_',
  signingSecret: 'whsec_',
} as const;

/** A new random id (UUID v4) for white labels, credentials and sessions. */
export function newId(): string {
  return randomUUID();
}

/** A prefixed base64url string of `bytes` random bytes (default 32 = 256 bits). */
export function randomToken(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/** A new public client id (96 random bits, hex). */
export function newClientId(): string {
  return PREFIX.clientId + randomBytes(12).toString('hex');
}

/** A new Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes (DECISIONS D11). */
export function newSigningSecret(): string {
  return PREFIX.signingSecret + randomBytes(32).toString('base64');
}

/** SHA-256 of a secret or token, lowercase hex: what the database stores. */
export function hashSecret(secret: string): string {
  // the one-shot digest: no Hash object per call (every partner request hashes its bearer token)
  return hash('sha256', secret, 'hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
