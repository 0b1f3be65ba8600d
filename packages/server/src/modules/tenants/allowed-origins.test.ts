import { DomainError } from '@bookie/core';
import { describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from './allowed-origins.js';

describe('parseAllowedOrigins', () => {
  it('normalises origins and drops duplicates', () => {
    expect(
      parseAllowedOrigins([
        'https://Casino.Example',
        'https://casino.example/',
        'http://127.0.0.1:5173',
        'https://x.io:443',
      ]),
    ).toEqual(['https://casino.example', 'http://127.0.0.1:5173', 'https://x.io']);
  });
  it.each([
    ['casino.example', 0],
    ['ftp://casino.example', 0],
    ['https://casino.example/frame', 0],
    ['https://casino.example?x=1', 0],
    ['https://user:pw@casino.example', 0],
  ])('refuses "%s" naming the entry', (bad) => {
    try {
      parseAllowedOrigins(['https://ok.example', bad]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).details?.field).toBe('allowed_origins[1]');
    }
  });
});
