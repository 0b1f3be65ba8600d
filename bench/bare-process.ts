/**
 * Starts `bench/bare-chain.ts` as a process of its own (`wallet [dbUrl]`: answers 204 to every POST; `server
 * <walletUrl> [dbUrl]`: the bare placement chain), for the benches' baselines. It stops with the bench.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startListening } from '@bookie/process';

const here = dirname(fileURLToPath(import.meta.url));

/** Resolves once the process listens; `kill()` stops it and resolves when it has exited. */
export async function spawnBare(args: string[]): Promise<{ url: string; kill: () => Promise<void> }> {
  const proc = await startListening({
    name: 'bare-chain',
    args: ['--conditions=bookie-source', '--import', 'tsx', join(here, 'bare-chain.ts'), ...args],
    listening: /listening on (\S+)/,
    timeoutMs: 30_000,
  });
  return {
    url: proc.url,
    kill: async () => {
      await proc.kill('SIGTERM');
    },
  };
}
