import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  choiceSetting,
  intSetting,
  postgresUrlSetting,
  readSetting,
  shareSetting,
} from './settings.js';

/** The error a read throws (fails when it throws none). */
function errorOf(read: () => unknown): ConfigError {
  try {
    read();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('no ConfigError');
}

describe('the settings loader', () => {
  it("converts the text to the schema's type and fills the default when the value is absent or empty", () => {
    expect(intSetting('PORT', '8081', 8080, 0, 65535)).toBe(8081);
    expect(intSetting('PORT', undefined, 8080, 0, 65535)).toBe(8080);
    expect(intSetting('PORT', '', 8080, 0, 65535)).toBe(8080);
    expect(shareSetting('--fail-rate', '0.25')).toBe(0.25);
    expect(shareSetting('--fail-rate', undefined)).toBeUndefined();
    expect(choiceSetting('LOG_LEVEL', undefined, ['info', 'debug'], 'info')).toBe('info');
    expect(postgresUrlSetting('DATABASE_URL', 'postgres://u@h/db')).toBe('postgres://u@h/db');
    expect(readSetting('TOKEN', Type.String({ minLength: 3 }), undefined)).toBeUndefined();
  });

  it('refuses a bad value with one line naming the setting and what it expects', () => {
    const e = errorOf(() => intSetting('--port', 'eighty', 8080, 0, 65535));
    expect(e.setting).toBe('--port');
    expect(e.message).toBe('invalid setting --port: expected a whole number 0..65535, got "eighty"');
    expect(errorOf(() => intSetting('DB_POOL_SIZE', '0', 10, 1, 1000)).setting).toBe('DB_POOL_SIZE');
    expect(errorOf(() => intSetting('X_MS', '1e9', 5, 0, 3_600_000)).message).toContain('0..3600000');
    expect(errorOf(() => shareSetting('--fail-rate', '1.5')).message).toContain('[0, 1]');
    expect(errorOf(() => choiceSetting('RISK_ENGINE', 'maybe', ['on', 'off'], 'on')).message).toBe(
      'invalid setting RISK_ENGINE: expected one of on, off, got "maybe"',
    );
    expect(errorOf(() => postgresUrlSetting('DATABASE_URL', 'mysql://x')).setting).toBe('DATABASE_URL');
    for (const e of [errorOf(() => intSetting('P', 'x', 1, 0, 2))]) expect(e.message).not.toContain('\n');
  });

  it('does not repeat a secret value in the error', () => {
    const e = errorOf(() =>
      readSetting('BOOKIE_ADMIN_TOKEN', Type.String({ minLength: 16 }), 'hunter2', '16 characters', {
        secret: true,
      }),
    );
    expect(e.message).toBe('invalid setting BOOKIE_ADMIN_TOKEN: expected 16 characters');
  });
});
