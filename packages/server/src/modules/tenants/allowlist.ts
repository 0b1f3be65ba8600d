import { BlockList, isIP, isIPv4 } from 'node:net';
import { BoundedMemo, validationError } from '@bookie/core';

/**
 * IP allowlists of white labels (spec 01 "Authentication", DECISIONS D27): IPv4 and IPv6 addresses and CIDR
 * blocks, matched with `node:net` BlockList. An empty list allows no address.
 */

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`, what a dual-stack socket reports) → the IPv4 address. */
export function normalizeAddress(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m?.[1] ?? address;
}

/**
 * Validates and normalises one allowlist entry: an address (`10.0.0.1`, `2001:db8::1`) or a CIDR block
 * (`10.0.0.0/8`, `2001:db8::/32`). Throws `validation_error` naming `field`.
 */
export function parseAllowlistEntry(raw: string, field: string): string {
  const entry = raw.trim();
  const [addr = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) throw validationError(field, `not an address or CIDR block: "${raw}"`);
  const address = normalizeAddress(addr);
  const family = isIP(address);
  if (family === 0) throw validationError(field, `not an IPv4 or IPv6 address: "${raw}"`);
  if (prefix === undefined) return address.toLowerCase();
  const max = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) {
    throw validationError(field, `prefix length must be 0..${max}: "${raw}"`);
  }
  return `${address.toLowerCase()}/${Number(prefix)}`;
}

/** Validates a whole allowlist; duplicates are dropped. Errors name `field[i]`. */
export function parseAllowlist(entries: readonly string[], field = 'allowlist'): string[] {
  const out: string[] = [];
  entries.forEach((e, i) => {
    const v = parseAllowlistEntry(e, `${field}[${i}]`);
    if (!out.includes(v)) out.push(v);
  });
  return out;
}

/** Builds a matcher for validated entries: `(address) => allowed`. */
export function allowlistMatcher(entries: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const e of entries) {
    const [addr = '', prefix] = e.split('/');
    const type = isIPv4(addr) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(prefix), type);
  }
  // the verdict per address, remembered (the list is fixed; a partner calls from a few addresses): a check
  // otherwise builds a native SocketAddress every request
  const seen = new BoundedMemo<boolean>(1000);
  return (raw: string) => {
    const allowed = seen.get(raw);
    if (allowed !== undefined) return allowed;
    const address = normalizeAddress(raw);
    const family = isIP(address);
    return seen.keep(raw, family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6'));
  };
}

const cache = new Map<string, (address: string) => boolean>();

/** {@link allowlistMatcher} memoised by the list's contents (allowlists change rarely; bounded cache). */
export function isAllowed(entries: readonly string[], address: string): boolean {
  const key = entries.join(',');
  let m = cache.get(key);
  if (!m) {
    if (cache.size >= 1000) cache.clear();
    m = allowlistMatcher(entries);
    cache.set(key, m);
  }
  return m(address);
}
