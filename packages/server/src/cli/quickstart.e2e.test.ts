import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The shell block of the README between `<!-- quickstart -->` and `<!-- /quickstart -->`. */
function quickstart(): string {
  const readme = readFileSync(`${ROOT}README.md`, 'utf8');
  const m = /<!-- quickstart -->\s*```sh\n([\s\S]*?)```\s*<!-- \/quickstart -->/.exec(readme);
  if (!m?.[1]) throw new Error('README.md has no quickstart block');
  return m[1];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Runs the README's integrator quickstart as written (only its ports moved to free ones) and checks every answer
 * it shows (`# → …` under the command), in order. The servers it starts are stopped with their process group.
 */
/** Whether nothing listens on `port` any more, polled for a while (a process takes a moment to exit). */
async function portCloses(port: number): Promise<boolean> {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const open = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (!open) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe('the README quickstart (real processes)', () => {
  it('runs as written and answers what it says', async () => {
    const script = quickstart();
    const expected = [...script.matchAll(/^# → (.*)$/gm)].map((m) => m[1]!.trim());
    expect(expected.length).toBeGreaterThanOrEqual(5);
    const [bookie, wallet] = [await freePort(), await freePort()];
    const body = script
      .replaceAll(':8080', `:${bookie}`)
      .replaceAll(':8090', `:${wallet}`)
      .replaceAll('--port 8080', `--port ${bookie}`)
      .replaceAll('--port 8090', `--port ${wallet}`);
    const env = { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', BOOKIE_ADMIN_TOKEN: '' };
    const child = spawn('bash', ['-euo', 'pipefail', '-c', body], { cwd: ROOT, env, detached: true });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    // the script's trap stopped both servers: their ports close (checked before the test's own clean-up)
    const stopped = await Promise.all([bookie, wallet].map((port) => portCloses(port)));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {}
    expect(code, `${out}\n${err}`).toBe(0);
    expect(stopped, 'the quickstart left a server running').toEqual([true, true]);
    // each shown answer, in order, as a line of the output
    const lines = out.split('\n').map((l) => l.trim());
    let at = 0;
    for (const answer of expected) {
      const found = lines.indexOf(answer, at);
      expect(found, `"${answer}" after line ${at} of:\n${out}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  }, 240_000);
});
