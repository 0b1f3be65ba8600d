import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowlistMatcher,
  isAllowed,
  normalizeAddress,
  parseAllowlist,
  parseAllowlistEntry,
} from './allowlist.js';

describe('allowlist entries', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    [' 10.0.0.0/8 ', '10.0.0.0/8'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['::/0', '::/0'],
  ])('accepts %s as %s', (raw, norm) => {
    expect(parseAllowlistEntry(raw, 'allowlist[0]')).toBe(norm);
  });

  it.each([
    'localhost',
    '256.1.1.1',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.0/8/1',
    '10.0.0.0/x',
    '1.2.3',
    '',
  ])('refuses %j naming the field', (raw) => {
    expect(() => parseAllowlist(['127.0.0.1', raw])).toThrow(
      expect.objectContaining({ code: 'validation_error', details: { field: 'allowlist[1]' } }),
    );
  });

  it('drops duplicates', () => {
    expect(parseAllowlist(['::1', '::1', '127.0.0.1'])).toEqual(['::1', '127.0.0.1']);
  });
});

describe('allowlist matching', () => {
  it('allows nothing when empty', () => {
    expect(allowlistMatcher([])('127.0.0.1')).toBe(false);
    expect(allowlistMatcher([])('::1')).toBe(false);
  });

  it('matches IPv4 addresses and CIDR blocks', () => {
    const m = allowlistMatcher(['192.0.2.7', '10.0.0.0/8']);
    expect(m('192.0.2.7')).toBe(true);
    expect(m('192.0.2.8')).toBe(false);
    expect(m('10.255.1.2')).toBe(true);
    expect(m('11.0.0.1')).toBe(false);
  });

  it('matches IPv6 addresses and CIDR blocks', () => {
    const m = allowlistMatcher(['::1', '2001:db8::/32']);
    expect(m('::1')).toBe(true);
    expect(m('2001:db8:ffff::42')).toBe(true);
    expect(m('2001:db9::1')).toBe(false);
    expect(m('127.0.0.1')).toBe(false);
  });

  it('treats IPv4-mapped IPv6 (dual-stack sockets) as IPv4', () => {
    expect(normalizeAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(allowlistMatcher(['10.0.0.0/8'])('::ffff:10.1.2.3')).toBe(true);
    expect(allowlistMatcher(['127.0.0.1'])('::FFFF:127.0.0.1')).toBe(true);
  });

  it('refuses what is not an address', () => {
    expect(allowlistMatcher(['0.0.0.0/0'])('not-an-ip')).toBe(false);
  });

  it('matches exactly the addresses inside a /24 (property)', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const inside = ip.startsWith('203.0.113.');
        expect(isAllowed(['203.0.113.0/24'], ip)).toBe(inside);
      }),
    );
  });
});
