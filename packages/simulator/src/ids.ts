/**
 * Deterministic ids of replayed data: UUID v5 (RFC 9562 §5.5, SHA-1 name-based) under one namespace, so the same
 * match of the same file gets the same sport event id on every run and every machine.
 *
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';

/** The RFC 9562 namespace for URLs. */
export const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/** Namespace of every id the simulator derives: `uuidV5("https://www.football-data.co.uk/", URL_NAMESPACE)`. */
export const FOOTBALL_DATA_NAMESPACE = '011263ea-48bd-52e8-bc1e-a7eca08e9c71';

/**
 * The UUID v5 of `name` in `namespace` (lowercase, hyphenated).
 *
 * @throws TypeError when `namespace` is not a UUID.
 */
export function uuidV5(name: string, namespace: string): string {
  const hex = namespace.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new TypeError(`uuidV5: namespace is not a UUID: "${namespace}"`);
  const hash = createHash('sha1').update(Buffer.from(hex, 'hex')).update(name, 'utf8').digest();
  const b = hash.subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50; // version 5
  b[8] = (b[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A simulator id: {@link uuidV5} of `name` in {@link FOOTBALL_DATA_NAMESPACE}. */
export function simulatorId(name: string): string {
  return uuidV5(name, FOOTBALL_DATA_NAMESPACE);
}
