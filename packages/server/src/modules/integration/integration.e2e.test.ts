import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryArgs } from '@bookie/process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatform, type TestPlatform } from '../../testing/platform.js';
import { runBookie } from '../../testing/process.js';
import { waitUntil } from '../../testing/scripted-partner.js';
import { sampleEvent } from '../trading/fixtures.js';
import { partnerMayCall, restOperations } from './mcp/rest-operations.js';
import { type BrokenPartner, startBrokenPartner } from './partner-check/broken-partner.testing.js';

/** `bookie` for the MCP client's child process: the compiled build when fresh, else the sources under tsx. */
const MAIN = entryArgs(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'));
const ONLY =
  'place_accept,place_decline,place_error_auth_session_unknown,settle_win,unsettle_and_settle_again,' +
  'duplicate_settle,retry_after_timeout';

let p: TestPlatform;
let broken: BrokenPartner;
let dir: string;

beforeAll(async () => {
  p = await startPlatform({ env: { BOOKIE_ENV: 'integration' } });
  await p.walletApi.deposit('e2e-check', '100.000000');
  broken = await startBrokenPartner();
  broken.deposit('e2e-check', '100.000000');
  dir = mkdtempSync(join(tmpdir(), 'bookie-partner-check-'));
}, 120_000);
afterAll(async () => {
  await p?.close();
  await broken?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('sandbox helpers end to end', () => {
  it('settles a bet at the wallet once the sandbox results its market', async () => {
    const ev = sampleEvent({ markets: 1 });
    expect((await p.call('POST', '/trading/sport-events', { body: ev })).status).toBe(201);
    const viewer = await p.session('viewer');
    await waitUntil(
      async () => (await p.call('GET', `/frame-api/sport-events/${ev.id}`, { token: viewer })).status === 200,
    );
    await p.walletApi.deposit('sandbox-bettor', '100');
    const session = await p.session('sandbox-bettor');
    const placed = await p.call('POST', '/frame-api/bets', {
      token: session,
      body: {
        bet_type: 'single',
        stake: '10',
        currency: 'EUR',
        odds_strategy: 3,
        selections: [{ sport_event_id: ev.id, market_id: '1', odd_id: '1', odds: '1.01' }],
      },
    });
    expect(placed.json.status).toBe(1);
    const resulted = await p.call('POST', `/integration/sandbox/sport-events/${ev.id}/markets/1/result`, {
      token: p.accessToken,
      body: { odds: { '1': 1 } },
    });
    expect(resulted.status).toBe(200);
    // won at the odds of odd 1 (1.5): 90 left after the stake, plus 15
    await waitUntil(
      async () => (await p.walletApi.balance('sandbox-bettor')).available === '105.000000',
      30_000,
    );
  });
});

describe('bookie partner-check', () => {
  it('passes against the reference wallet (exit 0) and writes the JSON report', async () => {
    const report = join(dir, 'wallet.json');
    const r = await runBookie([
      'partner-check',
      p.wallet.url,
      '--secret',
      p.partner.signingSecret,
      '--player',
      'e2e-check',
      '--only',
      ONLY,
      '--report',
      report,
    ]);
    expect(r.stdout).toMatch(/^PASS\s+place_accept/m);
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.ok).toBe(true);
    expect(json.scenarios.map((s: { id: string }) => s.id)).toEqual(ONLY.split(','));
  });

  it('fails against a broken partner (exit 1), naming the scenario and its rule', async () => {
    const report = join(dir, 'broken.json');
    const r = await runBookie([
      'partner-check',
      broken.url,
      '--player',
      'e2e-check',
      '--only',
      ONLY,
      '--unknown-session',
      '{"session":"unknown"}',
      '--report',
      report,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL\s+duplicate_settle\s+\(Idempotency \(the callback requests rule\)/m);
    expect(r.stdout).toMatch(/^PASS\s+place_error_auth_session_unknown/m);
    expect(JSON.parse(readFileSync(report, 'utf8')).counts).toMatchObject({
      fail: 1,
      pass: ONLY.split(',').length - 1,
    });
  });

  it('names the bad argument and exits 2', async () => {
    const r = await runBookie(['partner-check', 'not-a-url']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/callback-url/);
    const only = await runBookie(['partner-check', broken.url, '--only', 'nope']);
    expect(only.code).toBe(2);
    expect(only.stderr).toMatch(/--only/);
    const session = await runBookie(['partner-check', broken.url, '--unknown-session', '[1]']);
    expect(session.code).toBe(2);
    expect(session.stderr).toMatch(/--unknown-session: must be a JSON object/);
  });
});

describe('bookie mcp (stdio)', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'e2e', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...MAIN, 'mcp', '--url', p.bookie.url],
        env: {
          ...(process.env as Record<string, string>),
          BOOKIE_CLIENT_ID: p.partner.clientId,
          BOOKIE_CLIENT_SECRET: p.partner.clientSecret,
          LOG_LEVEL: 'warn',
        },
        stderr: 'pipe',
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it("lists the OpenAPI operations a partner may call plus the three contract tools (not the operator's)", async () => {
    const doc = await (await fetch(`${p.bookie.url}/openapi.json`)).json();
    const operations = restOperations(doc);
    const { tools } = await client.listTools();
    expect(tools.length).toBe(operations.filter(partnerMayCall).length + 3);
    expect(tools.map((t) => t.name)).not.toContain('createSportEvent');
  });

  it('answers get_contract and runs the partner check as a tool against the white label callback server', async () => {
    const contract = (await client.callTool({ name: 'get_contract', arguments: {} })) as {
      content: { text: string }[];
    };
    expect(JSON.parse(contract.content[0]?.text ?? '{}').specs).toHaveLength(5);
    const r = (await client.callTool({
      name: 'runPartnerCheck',
      arguments: { body: { player_id: 'e2e-check', only: ONLY.split(',') } },
    })) as { content: { text: string }[]; isError?: boolean };
    expect(r.isError).toBe(false);
    const report = JSON.parse(r.content[0]?.text ?? '{}');
    expect(report.callback_url).toBe(p.wallet.url);
    expect(report.ok).toBe(true);
  });

  it('is refused once its credential is revoked', async () => {
    const cred = await p.call('POST', `/admin/white-labels/${p.partner.whiteLabelId}/credentials`);
    expect(cred.status).toBe(201);
    const own = new Client({ name: 'e2e-revoked', version: '0.0.0' });
    await own.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...MAIN, 'mcp', '--url', p.bookie.url],
        env: {
          ...(process.env as Record<string, string>),
          BOOKIE_CLIENT_ID: cred.json.client_id,
          BOOKIE_CLIENT_SECRET: cred.json.client_secret,
          LOG_LEVEL: 'warn',
        },
        stderr: 'pipe',
      }),
    );
    try {
      expect((await own.listTools()).tools.length).toBeGreaterThan(3);
      const revoked = await p.call(
        'POST',
        `/admin/white-labels/${p.partner.whiteLabelId}/credentials/${cred.json.client_id}/revoke`,
      );
      expect(revoked.status).toBe(200);
      await expect(own.listTools()).rejects.toThrow();
    } finally {
      await own.close();
    }
  }, 60_000);

  it('exits 2 naming the setting when the credential is missing', async () => {
    const r = await runBookie(['mcp', '--url', p.bookie.url], {
      env: { BOOKIE_CLIENT_ID: '', BOOKIE_CLIENT_SECRET: '' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/BOOKIE_CLIENT_ID/);
  });
});
