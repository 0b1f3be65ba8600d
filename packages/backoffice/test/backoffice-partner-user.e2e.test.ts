import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestPartner } from '@bookie/server/testing/partner';
import type { TestPlatform } from '@bookie/server/testing/platform';
import { waitUntil } from '@bookie/server/testing/scripted-partner';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backofficeHelpers, SHOTS, startBackofficeWorld } from './backoffice.testing.js';

/**
 * A partner user's work in the backoffice, in a real browser (Debian Chromium through playwright-core) against a real
 * `bookie start` process and the reference wallet: credentials, the allowlist, callbacks, bets, reports, players and
 * bonuses; the session cookie's flags, CSRF, and isolation between white labels. Screenshots go to
 * packages/backoffice/test-results/ (git-ignored).
 */
describe('the backoffice in a browser', () => {
  let p: TestPlatform;
  let other: TestPartner;
  let browser: Browser;
  let eventId: string;
  let betId: string;
  let base: string;

  beforeAll(async () => {
    ({ p, other, browser, eventId, betId, base } = await startBackofficeWorld());
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  const { admin, logIn } = backofficeHelpers(() => ({ p, browser, eventId, base }));

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
    // the list may load again while the screen settles (a row drawn anew forgets a choice not yet set): choose the
    // group until the choice holds, then set it
    await page.waitForLoadState('networkidle');
    const setGroup = row.getByRole('button', { name: 'Set group' });
    await expect
      .poll(async () => {
        await row.locator('select[name="group"]').selectOption('vip');
        return setGroup.isEnabled();
      })
      .toBe(true);
    await setGroup.click();
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
});
