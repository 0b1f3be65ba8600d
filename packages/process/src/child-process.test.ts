import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runToCompletion, startListening } from './child-process.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}.ts`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bookie-process-'));
const startService = (env: NodeJS.ProcessEnv = {}) =>
  startListening({
    name: 'service',
    args: ['--import', 'tsx', fixture('service')],
    env: { ...process.env, ...env },
    listening: /service listening on (http:\/\/\S+)/,
    timeoutMs: 30_000,
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startListening and stopGracefully', () => {
  it('resolves to the URL the service prints; SIGTERM stops it gracefully with exit 0', async () => {
    const stopped = join(dir, 'sigterm');
    const service = await startService({ STOPPED_FILE: stopped });
    expect(await (await fetch(service.url)).text()).toBe('ok');
    expect(await service.kill()).toBe(0);
    expect(readFileSync(stopped, 'utf8')).toBe('stopped SIGTERM\n');
  });

  it('stops a service whose parent was killed with SIGKILL (no orphan)', async () => {
    const stopped = join(dir, 'orphan');
    const parent = spawn(process.execPath, ['--import', 'tsx', fixture('parent')], {
      env: { ...process.env, STOPPED_FILE: stopped },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = '';
      parent.stdout.on('data', (d) => {
        out += d;
        const m = /child (\d+)/.exec(out);
        if (m?.[1]) resolve(Number(m[1]));
      });
      parent.on('exit', () => reject(new Error(`parent exited first: ${out}`)));
    });
    expect(alive(pid)).toBe(true);
    parent.kill('SIGKILL');
    const deadline = Date.now() + 60_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive(pid)).toBe(false);
    expect(readFileSync(stopped, 'utf8')).toBe('stopped parent gone\n');
  });

  it('rejects with the output when the service exits before it listens', async () => {
    await expect(startService({ FAIL_AT_START: '1' })).rejects.toThrow(
      /service exited with 3 before listening:\nno database/,
    );
  });

  it('runToCompletion passes stdin and returns the exit code and both outputs', async () => {
    const code =
      "process.stdin.pipe(process.stdout); process.stdin.on('end', () => { console.error('e'); process.exitCode = 4; })";
    const r = await runToCompletion(['-e', code], { input: 'hello' });
    expect(r).toEqual({ code: 4, stdout: 'hello', stderr: 'e\n' });
  });
});
