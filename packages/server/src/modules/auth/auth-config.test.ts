import { describe, expect, it } from 'vitest';
import { ConfigError, loadAuthConfig, loadConfig } from '../../platform/config.js';

describe('tenancy settings', () => {
  it('has the defaults of ADR 0005', () => {
    expect(loadConfig({}).auth).toEqual({
      trustedProxies: [],
      accessTokenTtlS: 900,
      accessTokenCacheMs: 1000,
      sessionTokenTtlS: 86_400,
      partnerRateLimit: 6000,
      playerRateLimit: 600,
      rateLimitWindowMs: 60_000,
      tokenRateLimit: 120,
      bodyLimitBytes: 1_048_576,
      signingGraceS: 86_400,
      userSessionTtlS: 28_800,
      loginRateLimit: 20,
      loginLockoutAfter: 5,
      loginLockoutS: 900,
    });
  });

  it('reads trusted proxies as IPs and CIDR blocks', () => {
    expect(loadAuthConfig({ TRUSTED_PROXIES: '10.0.0.1, 10.1.0.0/16,::1,fd00::/8' }).trustedProxies).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      '::1',
      'fd00::/8',
    ]);
  });

  it.each([
    ['TRUSTED_PROXIES', 'proxy.local'],
    ['TRUSTED_PROXIES', '10.0.0.0/33'],
    ['TRUSTED_PROXIES', '10.0.0.1,'],
    ['ACCESS_TOKEN_TTL_S', '0'],
    ['ACCESS_TOKEN_TTL_S', '15m'],
    ['ACCESS_TOKEN_CACHE_MS', '-1'],
    ['ACCESS_TOKEN_CACHE_MS', '1s'],
    ['SESSION_TOKEN_TTL_S', '-1'],
    ['PARTNER_RATE_LIMIT', 'many'],
    ['PLAYER_RATE_LIMIT', '-1'],
    ['TOKEN_RATE_LIMIT', '1.5'],
    ['RATE_LIMIT_WINDOW_MS', '0'],
    ['BODY_LIMIT_BYTES', '10'],
    ['SIGNING_SECRET_GRACE_S', '99999999'],
    ['USER_SESSION_TTL_S', '10'],
    ['LOGIN_RATE_LIMIT', 'x'],
    ['LOGIN_LOCKOUT_AFTER', '0'],
    ['LOGIN_LOCKOUT_S', '1h'],
  ])('refuses %s=%s naming it', (setting, value) => {
    try {
      loadConfig({ [setting]: value });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).setting).toBe(setting);
    }
  });
});
