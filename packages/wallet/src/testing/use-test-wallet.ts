import { afterAll, beforeAll } from 'vitest';
import { startTestWallet, type TestWallet } from './in-process.js';

/**
 * One in-process wallet for the test file: started before its tests, closed after them. The returned object reads
 * through to the started wallet (its `url`, `api`, …), so tests use it as they would a {@link TestWallet}.
 */
export function useTestWallet(
  options: Parameters<typeof startTestWallet>[0] = {},
): Omit<TestWallet, 'close'> {
  let wallet: TestWallet | undefined;
  beforeAll(async () => {
    wallet = await startTestWallet(options);
  });
  afterAll(async () => {
    await wallet?.close();
  });
  const started = (): TestWallet => {
    if (!wallet) throw new Error('the test wallet is not started yet (use it inside a test or hook)');
    return wallet;
  };
  return {
    get url() {
      return started().url;
    },
    get api() {
      return started().api;
    },
    get app() {
      return started().app;
    },
    get database() {
      return started().database;
    },
    get faults() {
      return started().faults;
    },
  };
}
