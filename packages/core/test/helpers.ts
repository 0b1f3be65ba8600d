import { expect } from 'vitest';
import { DomainError, type ErrorCode } from '../src/errors.js';

/** Asserts `fn` throws a DomainError `code` (default validation_error) naming `field` in details and message. */
export function expectFieldError(
  fn: () => unknown,
  field: string,
  messagePart?: string,
  code: ErrorCode = 'validation_error',
): DomainError {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, `expected a ${code} naming ${field}`).toBeInstanceOf(DomainError);
  const err = thrown as DomainError;
  expect(err.code).toBe(code);
  expect(err.details?.field).toBe(field);
  expect(err.message).toContain(field);
  if (messagePart) expect(err.message).toContain(messagePart);
  return err;
}
