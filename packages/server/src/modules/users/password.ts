import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { validationError } from '@bookie/core';

/** scrypt cost parameters (RFC 7914): N = 2^15, r = 8, p = 1, 64-byte key, 16-byte salt. */
const N = 32768;
const R = 8;
const P = 1;
const KEY_LEN = 64;
const MAX_MEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LEN, { N: n, r, p, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/**
 * Checks a new password: 12 to 1024 characters.
 *
 * @throws DomainError validation_error naming `password`.
 */
export function checkPasswordPolicy(password: string): void {
  if (password.length < 12) throw validationError('password', 'must be at least 12 characters');
  if (password.length > 1024) throw validationError('password', 'must be at most 1024 characters');
}

/** The stored form of a password: `scrypt$N$r$p$<salt base64>$<key base64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** True when `password` matches the stored hash (constant-time comparison; parameters read from the hash). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  const key = await derive(password, salt, n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of a random password: verified against for unknown emails, so that they take as long as known ones. */
export const DUMMY_HASH_PROMISE = (): Promise<string> => hashPassword(randomBytes(16).toString('hex'));
