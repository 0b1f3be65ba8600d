import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../testing/database.js';
import { runBookie, startBookie } from '../testing/process.js';

describe('bookie start (real process)', () => {
  it('answers /healthz and /readyz, then exits 0 on SIGTERM', async () => {
    // on Postgres, a database of its own; else the embedded one in memory
    const db = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : undefined;
    const p = await startBookie(db?.url ? ['--db-url', db.url] : []);
    const health = await fetch(`${p.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${p.url}/readyz`);
    expect(ready.status).toBe(200);
    const openapi = await fetch(`${p.url}/openapi.json`);
    expect((await openapi.json()).openapi).toBe('3.1.0');
    expect(await p.kill('SIGTERM')).toBe(0);
    await db?.close();
  });

  it('exits 2 with one line naming a bad setting', async () => {
    const r = await runBookie(['start', '--port', 'eighty']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'error: invalid setting --port: expected a whole number 0..65535, got "eighty"',
    ]);
  });

  it('has --help on every command', async () => {
    for (const cmd of [[], ['start'], ['migrate']]) {
      const r = await runBookie([...cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Usage: bookie');
    }
  });

  it('migrates an embedded database', async () => {
    const r = await runBookie(['migrate', '--data-dir', 'memory']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).applied).toContain('0001_foundation');
  });
});
