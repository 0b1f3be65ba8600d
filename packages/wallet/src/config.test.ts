import { describe, expect, it } from 'vitest';
import { ConfigError, loadWalletConfig } from './config.js';

describe('wallet settings', () => {
  it('defaults to PGlite in ./.bookie-wallet, port 8090, no declared currency, no secret, no faults', () => {
    const c = loadWalletConfig({});
    expect(c).toMatchObject({ port: 8090, host: '127.0.0.1', defaultCurrency: undefined, secrets: [] });
    expect(c.database).toEqual({ dataDir: './.bookie-wallet' });
    expect(c.faults.error500Rate).toBe(0);
  });

  it('takes flags over WALLET_* variables and ignores Bookie’s DATABASE_URL', () => {
    const env = {
      WALLET_PORT: '9000',
      WALLET_DATABASE_URL: 'postgres://x/w',
      DATABASE_URL: 'postgres://x/bookie',
    };
    expect(loadWalletConfig(env).database).toEqual({ url: 'postgres://x/w', poolSize: 10 });
    expect(loadWalletConfig({ DATABASE_URL: 'postgres://x/bookie' }).database).toEqual({
      dataDir: './.bookie-wallet',
    });
    const c = loadWalletConfig(env, {
      port: '0',
      dataDir: 'memory',
      secret: 'whsec_abc=,whsec_def=',
      failRate: '0.25',
      delayMs: '50',
    });
    expect(c.port).toBe(0);
    expect(c.database).toEqual({ dataDir: undefined });
    expect(c.secrets).toEqual(['whsec_abc=', 'whsec_def=']);
    expect(c.faults).toMatchObject({ error500Rate: 0.25, delayMs: 50, delayRate: 1 });
  });

  it.each([
    [{ port: '70000' }, /WALLET_PORT/],
    [{ failRate: '1.5' }, /--fail-rate/],
    [{ currency: 'eur' }, /WALLET_CURRENCY/],
    [{ secret: 'not a secret!' }, /WALLET_SIGNING_SECRET/],
    [{ dbUrl: 'mysql://x' }, /WALLET_DATABASE_URL/],
  ])('rejects %j', (flags, msg) => {
    expect(() => loadWalletConfig({}, flags)).toThrow(ConfigError);
    expect(() => loadWalletConfig({}, flags)).toThrow(msg);
  });
});
