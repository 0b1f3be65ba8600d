import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleEvent } from '@bookie/server/modules/trading/fixtures';
import { createPartner, type TestPartner } from '@bookie/server/testing/partner';
import { startPlatform, type TestPlatform } from '@bookie/server/testing/platform';
import { waitUntil } from '@bookie/server/testing/scripted-partner';
import { openDatabase } from '@bookie/storage';
import { sql } from 'kysely';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The backoffice in a real browser (Debian Chromium through playwright-core) against a real `bookie start` process
 * and the reference wallet: a partner user's and an operator user's work, the session cookie's flags, CSRF, and
 * isolation between white labels. Screenshots go to packages/backoffice/test-results/ (git-ignored).
 */
const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = join(PKG, 'test-results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'backoffice test password';

describe('the backoffice in a browser', () => {
  let p: TestPlatform;
  let other: TestPartner;
  let browser: Browser;
  let eventId: string;
  let betId: string;
  let base: string;

  async function admin(method: string, path: string, body?: unknown) {
    return p.call(method, path, body === undefined ? {} : { body });
  }

  beforeAll(async () => {
    // the server serves the build it finds at start: build first when a fresh clone has none
    if (!existsSync(join(PKG, 'dist', 'index.html'))) {
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: PKG, stdio: 'inherit' });
    }
    mkdirSync(SHOTS, { recursive: true });
    p = await startPlatform({ whiteLabel: { name: 'Acme Bets' } });
    base = p.bookie.url;
    other = await createPartner({ baseUrl: base }, { name: 'Other partner' });
    for (const body of [
      { email: 'ops@bookie.test', role: 'operator', password: PASSWORD },
      {
        email: 'admin@acme.test',
        role: 'partner_admin',
        white_label_id: p.partner.whiteLabelId,
        password: PASSWORD,
      },
      {
        email: 'admin@other.test',
        role: 'partner_admin',
        white_label_id: other.whiteLabelId,
        password: PASSWORD,
      },
    ]) {
      const r = await admin('POST', '/admin/users', body);
      expect(r.status, JSON.stringify(r.json)).toBe(201);
    }
    // one accepted bet of the white label, placed through the frame API with the player's money at the wallet
    const ev = sampleEvent({ markets: 2 });
    expect((await admin('POST', '/trading/sport-events', ev)).status).toBe(201);
    eventId = ev.id as string;
    await p.walletApi.deposit('player-1', '100');
    const session = await p.session('player-1');
    let placed: { status: number; json: { id: string; status: number } } | undefined;
    await waitUntil(async () => {
      placed = await p.call('POST', '/frame-api/bets', {
        token: session,
        body: {
          bet_type: 'single',
          stake: '10',
          currency: 'EUR',
          odds_strategy: 3,
          selections: [{ sport_event_id: eventId, market_id: '1', odd_id: '1', odds: '1.5' }],
        },
      });
      return placed.status === 200 && placed.json.status === 1;
    }, 20_000);
    betId = (placed as { json: { id: string } }).json.id;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  async function logIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport: { width: 1100, height: 720 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    await page.goto(`${base}/backoffice/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByTestId('who').waitFor();
    return { context, page };
  }

  /** Places an accepted single of `playerId` on the event's outcome 1|1 through the frame API. */
  async function placeBet(playerId: string): Promise<string> {
    await p.walletApi.deposit(playerId, '100');
    const session = await p.session(playerId);
    let placed: { status: number; json: { id: string; status: number } } | undefined;
    await waitUntil(async () => {
      placed = await p.call('POST', '/frame-api/bets', {
        token: session,
        body: {
          bet_type: 'single',
          stake: '10',
          currency: 'EUR',
          odds_strategy: 3,
          selections: [{ sport_event_id: eventId, market_id: '1', odd_id: '1', odds: '1.5' }],
        },
      });
      return placed.status === 200 && placed.json.status === 1;
    }, 20_000);
    return (placed as { json: { id: string } }).json.id;
  }

  /**
   * Appends `n` log entries settlement cannot process (a rollback whose market id holds a NUL, which no API accepts)
   * while Bookie is stopped, and starts it again quarantining after 2 attempts: the entries' log versions.
   */
  async function poisonTheLog(n: number): Promise<string[]> {
    const versions: string[] = [];
    await p.restartBookie('SIGTERM', { SETTLEMENT_QUARANTINE_AFTER: '2' }, async () => {
      const [flag, where] = p.dbArgs as [string, string];
      const database = await openDatabase(flag === '--db-url' ? { url: where } : { dataDir: where });
      try {
        for (let i = 0; i < n; i++) {
          const r = await sql<{ v: string }>`select nextval('feed_version_seq')::text as v`.execute(
            database.db,
          );
          const v = r.rows[0]?.v as string;
          const line = JSON.stringify({
            v,
            sport_event_id: eventId,
            match_id: eventId,
            type: 'bet_rollback',
            timestamp: Math.floor(Date.now() / 1000),
            market_ids: ['1\u0000'],
            reason: 'technical_error_in_coefficient',
            dt_start: new Date(Date.now() - 60_000).toISOString(),
            dt_end: new Date().toISOString(),
          });
          await sql`insert into feed_log (v, sport_event_id, type, line) values (${v}::int8, ${eventId}, 'bet_rollback', ${line})`.execute(
            database.db,
          );
          versions.push(v);
        }
      } finally {
        await database.close();
      }
    });
    base = p.bookie.url;
    return versions;
  }

  it('a partner user manages credentials, the allowlist, a failing callback, a bet and a report', async () => {
    const { context, page } = await logIn('admin@acme.test');
    const wl = p.partner.whiteLabelId;

    // the session cookie: HttpOnly, SameSite=Strict, for the whole API
    const [cookie] = await context.cookies(base);
    expect(cookie).toMatchObject({ name: 'bookie_session', httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(await page.evaluate(() => document.cookie)).toBe('');

    // a credential: created (secret shown once), used for a token, revoked, and the token is refused
    await page.goto(`${base}/backoffice/#/credentials`);
    await page.getByRole('button', { name: 'Create credential' }).click();
    const clientId = (await page.locator('[data-field="client_id"]').textContent()) as string;
    const clientSecret = (await page.locator('[data-field="client_secret"]').textContent()) as string;
    await page.screenshot({ path: join(SHOTS, 'backoffice-credentials.png') });
    const tokenRes = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    expect(tokenRes.status).toBe(200);
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const whiteLabel = () => fetch(`${base}/white-label`, { headers: { authorization: `Bearer ${token}` } });
    expect((await whiteLabel()).status).toBe(200);
    const row = page.locator(`tr[data-client-id="${clientId}"]`);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect((await whiteLabel()).status).toBe(401);

    // the allowlist, and a callback URL that fails
    await page.goto(`${base}/backoffice/#/integration`);
    const allowlist = page.locator('textarea[name="allowlist"]');
    await allowlist.fill(`${await allowlist.inputValue()}\n203.0.113.7`);
    await page.getByRole('button', { name: 'Save allowlist' }).click();
    await page.getByText('Allowlist saved').waitFor();
    expect((await admin('GET', `/admin/white-labels/${wl}`)).json.allowlist).toEqual([
      '127.0.0.1',
      '::1',
      '203.0.113.7',
    ]);
    // the frame's allowed origins: a CORS preflight from that origin is answered for it
    await page.locator('textarea[name="allowed_origins"]').fill('https://shop.example.com');
    await page.getByRole('button', { name: 'Save allowed origins' }).click();
    await page.getByText('Allowed origins saved').waitFor();
    expect((await admin('GET', `/admin/white-labels/${wl}`)).json.allowed_origins).toEqual([
      'https://shop.example.com',
    ]);
    await waitUntil(async () => {
      const preflight = await fetch(`${base}/frame-api/bets`, {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
      });
      return (
        preflight.status === 204 &&
        preflight.headers.get('access-control-allow-origin') === 'https://shop.example.com'
      );
    }, 10_000);
    // the optional callbacks it implements: announcing heartbeat turns heartbeats on for its players
    const heartbeat = page.locator('tr[data-callback="heartbeat"]');
    await expect.poll(() => heartbeat.locator('td').last().textContent()).toBe('no');
    await page.getByLabel('heartbeat announced').selectOption('true');
    await page.getByText('Optional callback heartbeat saved').waitFor();
    expect((await admin('GET', `/admin/white-labels/${wl}`)).json.optional_callbacks.heartbeat).toMatchObject(
      {
        announced: true,
        supported: true,
      },
    );
    await expect.poll(() => heartbeat.locator('td').last().textContent()).toBe('yes');
    // the signing secret is shown once at rotation, and it is the one callbacks are signed with from now on
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    const shown = page.locator('code[data-field="secret"]');
    await shown.waitFor();
    expect(await shown.textContent()).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
    await page.locator('input[name="callback_url"]').fill('http://127.0.0.1:9/unreachable');
    await page.getByRole('button', { name: 'Save callback URL' }).click();
    await page.getByText('Callback URL saved').waitFor();

    // the bet: cancelled before settlement; its /bet/settle cannot be delivered
    await page.goto(`${base}/backoffice/#/bets`);
    await page.locator(`tr[data-bet="${betId}"] a`).click();
    await page.locator('input[name="reason"]').fill('event moved');
    await page.getByRole('button', { name: /^Cancel bet/ }).click();
    await expect.poll(() => page.getByTestId('bet-status').textContent()).toContain('refunded');

    // the failing callback: found in the queue with its attempts and last error, then retried once the URL is fixed
    await page.goto(`${base}/backoffice/#/callbacks`);
    const failing = page.locator('tr[data-status="pending"]').filter({ hasText: '/bet/settle' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return failing
            .locator('.last-error')
            .textContent({ timeout: 2000 })
            .catch(() => '');
        },
        { timeout: 30_000 },
      )
      .not.toBe('');
    // after the third attempt the next one is ~30 s away (D10): "Retry now" is what delivers it
    await waitUntil(async () => {
      const r = await admin('GET', `/admin/callbacks?bet_id=${betId}`);
      return r.json.items.some(
        (d: { path: string; attempts: number }) => d.path === '/bet/settle' && d.attempts >= 3,
      );
    }, 30_000);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => failing.locator('td').nth(4).textContent()).toBe('3');
    await page.screenshot({ path: join(SHOTS, 'backoffice-callbacks.png') });
    await page.goto(`${base}/backoffice/#/integration`);
    await page.locator('input[name="callback_url"]').fill(p.wallet.url);
    await page.getByRole('button', { name: 'Save callback URL' }).click();
    await page.getByText('Callback URL saved').waitFor();
    // the new URL reaches the dispatcher within its 1 s white-label cache: retry until a retry is delivered
    const settle = async () =>
      (
        (await admin('GET', `/admin/callbacks?bet_id=${betId}`)).json.items as Array<Record<string, unknown>>
      ).find((d) => d.path === '/bet/settle') as { status: string; attempts: number };
    await page.goto(`${base}/backoffice/#/callbacks`);
    await waitUntil(async () => {
      const before = await settle();
      if (before.status === 'delivered') return true;
      await Promise.all([
        page.waitForResponse((r) => r.url().includes('/admin/callbacks?')),
        page.getByRole('button', { name: 'Refresh' }).click(),
      ]);
      const [retried] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/retry')),
        failing.getByRole('button', { name: 'Retry now' }).click(),
      ]);
      expect(retried.status()).toBe(200);
      await waitUntil(async () => (await settle()).attempts > before.attempts, 10_000);
      return (await settle()).status === 'delivered';
    }, 30_000);

    // a report, downloaded as CSV
    await page.goto(`${base}/backoffice/#/reports`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download bets CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'bet_id,player_id,created_at,status,type,currency,stake,total_odds,settle_amount,settled_at',
    );
    expect(csv).toContain(`${betId},player-1,`);

    // every change is in the audit log with the user's name
    const audit = await admin('GET', '/admin/audit-log?actor=user:admin@acme.test&limit=50');
    const actions = audit.json.items.map((a: { action: string }) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'POST /admin/white-labels/:id/credentials',
        'POST /admin/white-labels/:id/credentials/:client_id/revoke',
        'PATCH /admin/white-labels/:id',
        'POST /bets/:bet_id/cancel',
        'POST /admin/callbacks/:id/retry',
      ]),
    );
    await context.close();
  }, 150_000);

  it('a partner user cannot change without the CSRF token, nor see another white label', async () => {
    const { context, page } = await logIn('admin@other.test');
    const mine = other.whiteLabelId;
    const theirs = p.partner.whiteLabelId;
    const deliveries = (await admin('GET', `/admin/callbacks?bet_id=${betId}`)).json.items as Array<{
      id: string;
    }>;
    const delivery = deliveries[0]?.id as string;
    const answers = await page.evaluate(
      async ({ mine, theirs, betId, delivery }) => {
        const status = async (url: string, init?: RequestInit) => (await fetch(url, init)).status;
        const patch = {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: '{"allowlist":[]}',
        };
        const list = await (await fetch(`/admin/callbacks?white_label_id=${theirs}`)).json();
        return {
          noCsrf: await status(`/admin/white-labels/${mine}`, patch),
          theirWhiteLabel: await status(`/admin/white-labels/${theirs}`),
          theirBet: await status(`/bets/${betId}`),
          theirCallbacks: list.items.length,
          theirDelivery: await status(`/admin/callbacks/${delivery}`),
          allWhiteLabels: await status('/admin/white-labels'),
        };
      },
      { mine, theirs, betId, delivery },
    );
    expect(answers).toEqual({
      noCsrf: 403,
      theirWhiteLabel: 404,
      theirBet: 404,
      theirCallbacks: 0,
      theirDelivery: 404,
      allWhiteLabels: 403,
    });
    await Promise.all([
      page.waitForResponse((r) => r.url().includes('/bets?') && r.status() === 200),
      page.goto(`${base}/backoffice/#/bets`),
    ]);
    await page.getByRole('button', { name: 'Search' }).waitFor();
    expect(await page.locator(`tr[data-bet="${betId}"]`).count()).toBe(0);
    await context.close();
  }, 60_000);

  it("a partner user sets a player's risk group, blocks the player, and creates and cancels bonuses", async () => {
    const { context, page } = await logIn('admin@acme.test');
    const risk = async () =>
      (await p.call('GET', '/players/player-1/risk', { token: p.accessToken })).json as { group: string };

    // the white label's bettors with their risk; the group set, then the player blocked
    await page.goto(`${base}/backoffice/#/players`);
    const row = page.locator('tr[data-player="player-1"]');
    await row.waitFor();
    await row.locator('select[name="group"]').selectOption('vip');
    await row.getByRole('button', { name: 'Set group' }).click();
    await expect.poll(() => row.locator('[data-field="group"]').textContent()).toBe('vip');
    expect((await risk()).group).toBe('vip');
    await row.getByRole('button', { name: 'Block' }).click();
    await expect.poll(() => row.locator('[data-field="group"]').textContent()).toBe('blocked');
    expect((await risk()).group).toBe('blocked');
    await page.screenshot({ path: join(SHOTS, 'backoffice-players.png') });
    // searching by id finds one player, unknown ones read as the default group
    await page.locator('input[name="player_id"]').fill('nobody-yet');
    await page.getByRole('button', { name: 'Find' }).click();
    await expect
      .poll(() => page.locator('tr[data-player="nobody-yet"] [data-field="group"]').textContent())
      .toBe('default');

    // a freebet: created from the form, then cancelled
    await page.goto(`${base}/backoffice/#/bonuses`);
    await page.locator('input[name="player_id"]').fill('player-2');
    await page.locator('input[name="amount"]').fill('5');
    await page.getByRole('button', { name: 'Create freebet' }).click();
    const freebet = page.locator('tr[data-bonus]').filter({ hasText: 'player-2' });
    await expect.poll(() => freebet.locator('[data-field="status"]').textContent()).toBe('available');
    const id = (await freebet.getAttribute('data-bonus')) as string;
    await freebet.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => freebet.locator('[data-field="status"]').textContent()).toBe('cancelled');
    expect((await p.call('GET', `/freebet/${id}`, { token: p.accessToken })).json.status).toBe('cancelled');
    // freebets for many players at once, each answered on its own
    await page.locator('textarea[name="players"]').fill('player-4\nplayer-5');
    await page.getByRole('button', { name: 'Create for each player' }).click();
    await page.getByText('2 of 2 created').waitFor();
    const listed = await p.call('GET', '/freebets?player_id=player-5', { token: p.accessToken });
    expect(listed.json.items.map((f: { amount: string }) => f.amount)).toEqual(['5.000000']);
    // a boost: created, then cancelled
    await page.getByRole('button', { name: 'boosts', exact: true }).click();
    await page.locator('input[name="player_id"]').fill('');
    await page.locator('input[name="name"]').fill('Derby boost');
    await page.getByRole('button', { name: 'Create boost' }).click();
    const boost = page.locator('tr[data-bonus]').filter({ hasText: 'every player' });
    await expect.poll(() => boost.locator('[data-field="status"]').textContent()).toBe('active');
    await boost.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => boost.locator('[data-field="status"]').textContent()).toBe('cancelled');

    const audit = await admin('GET', '/admin/audit-log?actor=user:admin@acme.test&limit=50');
    const actions = audit.json.items.map((a: { action: string }) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'PUT /players/:player_id/risk',
        'POST /freebet/create',
        'POST /freebet/cancel',
      ]),
    );
    await context.close();
  }, 60_000);

  it('an operator user configures a white label, sees the live book with exposure, and decides quarantined entries', async () => {
    await placeBet('player-3');
    const { context, page } = await logIn('ops@bookie.test');
    const wl = p.partner.whiteLabelId;
    await page.goto(`${base}/backoffice/#/white-labels`);
    // a white label made with the create form keeps the frame origins given there (no update needed)
    await page.locator('input[name="name"]').fill('Origins Ltd');
    await page
      .locator('input[name="allowed_origins"]')
      .fill('https://Origins.example, http://127.0.0.1:5173');
    await page.getByRole('button', { name: 'Create white label' }).click();
    await page.getByTestId('secret-once').waitFor();
    const made = (
      (await admin('GET', '/admin/white-labels')).json.white_labels as Array<{
        name: string;
        allowed_origins: string[];
      }>
    ).find((w) => w.name === 'Origins Ltd');
    expect(made?.allowed_origins).toEqual(['https://origins.example', 'http://127.0.0.1:5173']);
    await page.locator(`tr[data-white-label="${wl}"]`).getByRole('button', { name: 'Configure' }).click();
    const form = page.getByRole('form', { name: 'Configure Acme Bets' });
    await form.locator('input[name="max_stake"]').fill('250');
    await form.locator('input[name="bet_delay"]').fill('3');
    await form.getByRole('button', { name: 'Save limits' }).click();
    await page.locator(`tr[data-white-label="${wl}"]`).getByText('3 / 0').waitFor();
    const view = (await admin('GET', `/admin/white-labels/${wl}`)).json;
    expect(view.limits.max_stake).toBe('250.000000');
    expect(view.bet_delay).toBe(3);

    await page.goto(`${base}/backoffice/#/live-book`);
    await page
      .locator(`tr[data-event="${eventId}"]`)
      .getByRole('link', { name: 'Arsenal vs Chelsea' })
      .click();
    await expect
      .poll(() => page.getByTestId('event-book').locator('[data-odd="1|1"] .price').textContent())
      .toBe('1.5');
    // the exposure of the outcome with an open bet, next to its odds, as the risk engine stores it
    const stored = (await admin('GET', `/admin/risk/exposure?sport_event_id=${eventId}`)).json
      .items as Array<{
      market_id: string;
      odd_id: string;
      exposure_eur: string;
    }>;
    const outcome = stored.filter((x) => x.market_id === '1' && x.odd_id === '1');
    expect(outcome).toHaveLength(1);
    const shown = (outcome[0]?.exposure_eur as string).replace(/(\.\d{2})\d*$/, '$1');
    const exposure = page.locator('[data-odd="1|1"] [data-field="exposure"]');
    await expect.poll(() => exposure.getAttribute('data-value')).toBe(outcome[0]?.exposure_eur);
    expect(await exposure.textContent()).toContain(`exposure EUR ${shown}`);
    await page.screenshot({ path: join(SHOTS, 'backoffice-live-book.png') });
    await page.getByRole('button', { name: 'Bet stop' }).click();
    await page.getByRole('button', { name: 'Lift bet stop' }).waitFor();
    expect((await admin('GET', `/trading/sport-events/${eventId}`)).json.sport_event.bet_stop).toBe(true);
    await page.getByRole('button', { name: 'Lift bet stop' }).click();
    await page.getByRole('button', { name: 'Bet stop' }).waitFor();

    // two log entries settlement cannot process, quarantined; one retried (it fails again), one skipped
    const poison = await poisonTheLog(2);
    await page.goto(`${base}/backoffice/#/settlement`);
    await waitUntil(async () => {
      const q = await admin('GET', '/admin/settlement/quarantine?status=quarantined');
      return q.status === 200 && q.json.items.length === 2;
    }, 30_000);
    await page.getByTestId('quarantine').getByRole('button', { name: 'Refresh' }).click();
    const entry = (v: string) => page.getByTestId('quarantine').locator(`tr[data-entry="${v}"]`);
    await entry(poison[0] as string).waitFor();
    await page.locator('input[name="reason"]').fill('market ids fixed; replay it');
    await entry(poison[0] as string)
      .getByRole('button', { name: 'Retry' })
      .click();
    const first = async () =>
      (
        (await admin('GET', '/admin/settlement/quarantine')).json.items as Array<{
          v: string;
          attempts: number;
        }>
      ).find((q) => q.v === poison[0]);
    await waitUntil(async () => ((await first())?.attempts ?? 0) > 2, 30_000);
    await entry(poison[1] as string)
      .getByRole('button', { name: 'Skip' })
      .click();
    await entry(poison[1] as string).waitFor({ state: 'detached' });
    await page.screenshot({ path: join(SHOTS, 'backoffice-quarantine.png') });
    const skipped = await admin('GET', '/admin/settlement/quarantine?status=skipped');
    expect(skipped.json.items.map((q: { v: string }) => q.v)).toEqual([poison[1]]);
    const audit = await admin('GET', '/admin/audit-log?actor=user:ops@bookie.test&limit=50');
    expect(audit.json.items.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining([
        'POST /admin/settlement/quarantine/:v/retry',
        'POST /admin/settlement/quarantine/:v/skip',
      ]),
    );
    await context.close();
  }, 120_000);
});
