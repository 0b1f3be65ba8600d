import { describe, expect, it } from 'vitest';
import { DomainError, ERROR_CODES, isDomainError, validationError } from './errors.js';

describe('DomainError', () => {
  it('carries code, message and details', () => {
    const e = new DomainError('not_found', 'bet b1 not found', { bet_id: 'b1' });
    expect(e).toBeInstanceOf(Error);
    expect([e.name, e.code, e.message, e.details]).toEqual([
      'DomainError',
      'not_found',
      'bet b1 not found',
      { bet_id: 'b1' },
    ]);
    expect(new DomainError('conflict', 'x').details).toBeUndefined();
    expect(isDomainError(e)).toBe(true);
    expect(isDomainError(e, 'conflict')).toBe(false);
    expect(isDomainError(new Error('x'))).toBe(false);
  });

  it('validation errors name the field', () => {
    const e = validationError('legs[1].odds', 'odds must be at least 1', { got: '0.5' });
    expect(e.code).toBe('validation_error');
    expect(e.message).toBe('legs[1].odds: odds must be at least 1');
    expect(e.details).toEqual({ field: 'legs[1].odds', got: '0.5' });
  });

  it('lists the codes the platform needs', () => {
    for (const code of [
      'validation_error',
      'not_found',
      'conflict',
      'unauthorized',
      'forbidden',
      'rate_limited',
      'version_expired',
      'internal_error',
    ]) {
      expect(ERROR_CODES).toContain(code);
    }
  });
});
