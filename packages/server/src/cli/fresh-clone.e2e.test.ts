import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Runs a command to its end in `cwd`; rejects with its output when it fails. */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}`)),
    );
  });
}

/**
 * What a newcomer does on a fresh clone, following only the README: `npm ci`, then `npx bookie start`. The frame,
 * the backoffice and the landing page must be served (npm ci's prepare step builds them), never "not built".
 */
describe('a fresh clone (git clone, npm ci, npx bookie start)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bookie-clone-'));
  let server: ChildProcess | undefined;
  afterAll(async () => {
    // npx runs Bookie as its child: the signal goes to the whole process group, or Bookie outlives the test
    if (server?.pid !== undefined && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server?.once('exit', r));
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {}
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the frame, the backoffice and the landing page', { timeout: 1_200_000 }, async () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: '',
      BOOKIE_DATA_DIR: '',
      LOG_LEVEL: 'info',
    };
    // the npm and vitest settings of this run are not a newcomer's
    for (const k of Object.keys(env)) if (/^(npm_|VITEST|NODE_OPTIONS$)/i.test(k)) delete env[k];
    await run('git', ['clone', '--quiet', '--no-checkout', ROOT, dir], ROOT, env);
    await run('git', ['checkout', '--quiet', head], dir, env);
    await run('npm', ['ci', '--no-audit', '--no-fund'], dir, env);

    server = spawn('npx', ['bookie', 'start', '--data-dir', 'memory', '--port', '0'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // its own process group, ended whole after the test
      detached: true,
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const seen = (d: Buffer) => {
        out += d;
        const m = /bookie listening on (http:\/\/[^"\s]+)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      };
      server?.stdout?.on('data', seen);
      server?.stderr?.on('data', seen);
      server?.on('exit', (code) => reject(new Error(`bookie start exited ${code}:\n${out}`)));
    });

    for (const path of ['/frame/bootstrap.js', '/backoffice/', '/']) {
      const res = await fetch(`${url}${path}`);
      expect(res.status, path).toBe(200);
    }
    const landing = await (await fetch(`${url}/`)).text();
    expect(landing).toContain('<html');
    for (const link of ['/frame/bootstrap.js', '/backoffice/', '/docs', '/healthz']) {
      expect(landing).toContain(`href="${link}"`);
    }
  });
});
