import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toMatch(/\.bookie$/);
    expect(c.dbPreparedStatements).toBe(true);
    expect(c.frame).toEqual({ heartbeatIntervalS: 30, bannerCacheS: 60 });
  });

  it('runs as production unless BOOKIE_ENV=integration (DECISIONS D51)', () => {
    expect(loadConfig({}).environment).toBe('production');
    expect(loadConfig({ BOOKIE_ENV: 'production' }).environment).toBe('production');
    expect(loadConfig({ BOOKIE_ENV: 'integration' }).environment).toBe('integration');
  });

  it('has the risk engine on with D39 shading defaults, and turns it off with RISK_ENGINE=off', () => {
    expect(loadConfig({}).risk).toMatchObject({ enabled: true, shadeFrom: '0.5', shadeMax: '0.2' });
    expect(loadConfig({ RISK_ENGINE: 'off' }).risk.enabled).toBe(false);
  });

  it('turns prepared statements off with DB_PREPARED_STATEMENTS=0, and pipelining with DB_PIPELINE=0', () => {
    expect(loadConfig({ DB_PREPARED_STATEMENTS: '0' }).dbPreparedStatements).toBe(false);
    expect(loadConfig({ DB_PREPARED_STATEMENTS: '1' }).dbPreparedStatements).toBe(true);
    expect(loadConfig({}).dbPipeline).toBe(true);
    expect(loadConfig({ DB_PIPELINE: '0' }).dbPipeline).toBe(false);
  });

  it('lets flags override the environment', () => {
    const c = loadConfig(
      { PORT: '1', DATABASE_URL: 'postgres://a/b' },
      { port: '2', dbUrl: 'postgresql://c/d' },
    );
    expect(c.port).toBe(2);
    expect(c.databaseUrl).toBe('postgresql://c/d');
  });

  it('uses the embedded database when --data-dir is given, even with DATABASE_URL set', () => {
    const c = loadConfig({ DATABASE_URL: 'postgres://a/b' }, { dataDir: 'memory' });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toBeUndefined();
  });

  it("reads the settlement consumer's settings, with their defaults", () => {
    expect(loadConfig({}).settlement).toEqual({
      pageSize: 1000,
      pagesInFlight: 2,
      leaseTtlMs: 15_000,
      sweepIntervalMs: 2000,
      quarantineAfter: 5,
    });
    expect(
      loadConfig({
        SETTLEMENT_PAGE_SIZE: '5',
        SETTLEMENT_PAGES_IN_FLIGHT: '1',
        SETTLEMENT_LEASE_TTL_MS: '2000',
        SETTLEMENT_SWEEP_MS: '0',
        SETTLEMENT_QUARANTINE_AFTER: '2',
      }).settlement,
    ).toEqual({ pageSize: 5, pagesInFlight: 1, leaseTtlMs: 2000, sweepIntervalMs: 0, quarantineAfter: 2 });
  });

  it("reads the outbox's retention: 90 days by default, 0 keeps every callback, less than a day is refused", () => {
    expect(loadConfig({}).callbacks).toMatchObject({ retentionS: 7_776_000, retentionIntervalS: 3600 });
    expect(
      loadConfig({ CALLBACK_RETENTION_S: '0', CALLBACK_RETENTION_INTERVAL_S: '60' }).callbacks,
    ).toMatchObject({ retentionS: 0, retentionIntervalS: 60 });
    expect(loadConfig({ CALLBACK_RETENTION_S: '86400' }).callbacks.retentionS).toBe(86_400);
    expect(() => loadConfig({ CALLBACK_RETENTION_S: '3600' })).toThrow(
      'invalid setting CALLBACK_RETENTION_S: must be 0 (kept forever) or at least 86400 (one day)',
    );
  });

  it('names the settlement setting and its range in the error', () => {
    expect(() => loadConfig({ SETTLEMENT_PAGE_SIZE: '0' })).toThrow(
      'invalid setting SETTLEMENT_PAGE_SIZE: expected a whole number 1..10000, got "0"',
    );
  });

  it.each([
    [{ PORT: 'x' }, {}, 'PORT'],
    [{}, { port: '70000' }, '--port'],
    [{ DATABASE_URL: 'mysql://x' }, {}, 'DATABASE_URL'],
    [{}, { dbUrl: 'not a url' }, '--db-url'],
    [{ LOG_LEVEL: 'loud' }, {}, 'LOG_LEVEL'],
    [{ BOOKIE_ADMIN_TOKEN: 'short' }, {}, 'BOOKIE_ADMIN_TOKEN'],
    [{ DB_POOL_SIZE: '0' }, {}, 'DB_POOL_SIZE'],
    [{ DB_PREPARED_STATEMENTS: 'yes' }, {}, 'DB_PREPARED_STATEMENTS'],
    [{ RISK_ENGINE: 'maybe' }, {}, 'RISK_ENGINE'],
    [{ RISK_SHADE_FROM: '1.5' }, {}, 'RISK_SHADE_FROM'],
    [{ RISK_SHADE_MAX: '-0.1' }, {}, 'RISK_SHADE_MAX'],
    [{ DELAY_INSTABILITY_WINDOW_S: 'x' }, {}, 'DELAY_INSTABILITY_WINDOW_S'],
    [{ DELAY_INSTABILITY_EXTRA_S: '-1' }, {}, 'DELAY_INSTABILITY_EXTRA_S'],
    [{ RISK_SETTINGS_CACHE_MS: '1e9' }, {}, 'RISK_SETTINGS_CACHE_MS'],
    [{ SYSTEM_MAX_COMBINATIONS: '0' }, {}, 'SYSTEM_MAX_COMBINATIONS'],
    [{ SYSTEM_MAX_COMBINATIONS: '100001' }, {}, 'SYSTEM_MAX_COMBINATIONS'],
    [{ HEARTBEAT_INTERVAL_S: '-1' }, {}, 'HEARTBEAT_INTERVAL_S'],
    [{ BANNER_CACHE_S: 'soon' }, {}, 'BANNER_CACHE_S'],
    [{ BOOKIE_ENV: 'staging' }, {}, 'BOOKIE_ENV'],
    [{ SETTLEMENT_PAGE_SIZE: '10001' }, {}, 'SETTLEMENT_PAGE_SIZE'],
    [{ SETTLEMENT_PAGES_IN_FLIGHT: '9' }, {}, 'SETTLEMENT_PAGES_IN_FLIGHT'],
    [{ SETTLEMENT_LEASE_TTL_MS: '999' }, {}, 'SETTLEMENT_LEASE_TTL_MS'],
    [{ SETTLEMENT_SWEEP_MS: '-1' }, {}, 'SETTLEMENT_SWEEP_MS'],
    [{ SETTLEMENT_QUARANTINE_AFTER: '0' }, {}, 'SETTLEMENT_QUARANTINE_AFTER'],
  ])('rejects %j %j naming %s', (env, flags, setting) => {
    try {
      loadConfig(env, flags);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).setting).toBe(setting);
      expect((e as Error).message).toContain(setting);
    }
  });
});
