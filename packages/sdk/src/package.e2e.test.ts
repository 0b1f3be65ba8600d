import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The SDK and the workspace packages it depends on, each packed as npm would publish it. */
const PACKAGES = ['core', 'contracts', 'sdk'];

function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    for (const k of Object.keys(env)) if (/^(npm_|VITEST|NODE_OPTIONS$)/i.test(k)) delete env[k];
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}\n${err}`)),
    );
  });
}

/** The partner guide's first uses of the SDK, as a partner's own TypeScript project would write them. */
const EXAMPLE = `
import { createCallbackHandler, createPartnerClient, generateSigningSecret, signCallback, verifyCallback } from '@bookie/sdk';

const secret = generateSigningSecret();
const held: string[] = [];
const handler = createCallbackHandler({ secret, handlers: {
  place: async (body) => { held.push(body.bet_stake); },
  accept: async () => {}, decline: async () => {}, settle: async () => {}, unsettle: async () => {},
} });
const body = JSON.stringify({
  request_id: 'req-1', bet_id: 'bet-1', bet_player_id: 'player-42', bet_stake: '10.000000', bet_type: 'single',
  bet_created_at: new Date().toISOString(), bet_odds: '2.500000', bet_selections: [],
});
const headers = signCallback({ secret, id: 'req-1', timestamp: new Date(), body });
const verified = verifyCallback(headers, body, secret);
const forged = await handler.handle({ method: 'POST', path: '/bet/place', headers: { ...headers, 'webhook-signature': 'v1,AAAA' }, body: Buffer.from(body) });
const bookie = createPartnerClient({ baseUrl: 'http://127.0.0.1:1', clientId: 'id', clientSecret: 'secret' });
console.log(JSON.stringify({ verified: verified.id, forged: forged.status, client: typeof bookie.POST }));
`;

describe('@bookie/sdk as a partner installs it (npm pack, npm install outside the workspace)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bookie-sdk-partner-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'packs with types, ESM, README and licence, installs, type-checks and verifies a signature',
    { timeout: 600_000 },
    async () => {
      const tarballs: string[] = [];
      for (const p of PACKAGES) {
        const out = await run(
          'npm',
          ['pack', '--silent', '--pack-destination', dir],
          join(ROOT, 'packages', p),
        );
        const file = join(dir, out.trim().split('\n').pop()!);
        const files = execFileSync('tar', ['tzf', file], { encoding: 'utf8' }).split('\n');
        for (const f of [
          'package/package.json',
          'package/README.md',
          'package/LICENSE',
          'package/dist/index.js',
          'package/dist/index.d.ts',
        ]) {
          expect(files, `${p}: ${f}`).toContain(f);
        }
        expect(
          files.filter((f) => f.includes('/src/') || f.endsWith('.test.js')),
          p,
        ).toEqual([]);
        tarballs.push(file);
      }
      const project = join(dir, 'partner');
      rmSync(project, { recursive: true, force: true });
      execFileSync('mkdir', ['-p', project]);
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'partner', private: true, type: 'module' }),
      );
      await run('npm', ['install', '--no-audit', '--no-fund', ...tarballs], project);
      expect(readdirSync(join(project, 'node_modules', '@bookie')).sort()).toEqual([
        'contracts',
        'core',
        'sdk',
      ]);

      writeFileSync(join(project, 'example.ts'), EXAMPLE);
      // the types come with the package: a strict type-check of the example passes
      await run(
        process.execPath,
        [
          join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
          '--noEmit',
          '--strict',
          '--skipLibCheck',
          '--target',
          'es2022',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--types',
          'node',
          '--typeRoots',
          join(ROOT, 'node_modules', '@types'),
          'example.ts',
        ],
        project,
      );
      writeFileSync(join(project, 'example.mjs'), EXAMPLE.replace(/<[^>]*>|: string\[\]/g, ''));
      const out = JSON.parse((await run(process.execPath, ['example.mjs'], project)).trim());
      expect(out).toEqual({ verified: 'req-1', forged: 401, client: 'function' });
    },
  );
});
