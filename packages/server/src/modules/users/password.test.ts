import { describe, expect, it } from 'vitest';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './password.js';

describe('scrypt password hashes', () => {
  it('stores the parameters, a salt and the key; verifies the password and nothing else', async () => {
    const h = await hashPassword('correct horse battery');
    expect(h).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/);
    expect(await hashPassword('correct horse battery')).not.toBe(h);
    expect(await verifyPassword('correct horse battery', h)).toBe(true);
    expect(await verifyPassword('correct horse batterY', h)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'bcrypt$whatever')).toBe(false);
    expect(await verifyPassword('correct horse battery', h.slice(0, -8))).toBe(false);
  });

  it('refuses passwords shorter than 12 characters naming the field', () => {
    expect(() => checkPasswordPolicy('short')).toThrow(/^password: /);
    expect(() => checkPasswordPolicy('x'.repeat(1025))).toThrow(/^password: /);
    expect(() => checkPasswordPolicy('twelve chars')).not.toThrow();
  });
});
