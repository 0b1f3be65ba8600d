import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyCallback } from '@bookie/sdk';
import { sampleEvent } from '@bookie/server/modules/trading/fixtures';
import { createPartner, type TestPartner } from '@bookie/server/testing/partner';
import { startPlatform, type TestPlatform } from '@bookie/server/testing/platform';
import { relayPartner, waitUntil } from '@bookie/server/testing/scripted-partner';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The backoffice an operator runs a book from and a partner serves itself with, in a real browser (Debian Chromium
 * through playwright-core) against a real `bookie start` process, its database and the reference wallet: the home's
 * figures against the reports API, the heatmap, a market suspended from the keyboard and seen in the feed, a limit
 * changed and seen by GET /restrictions; a partner's credential and signing secret shown once, a callback verified
 * with the SDK under the new secret; and axe-core's accessibility check of each screen. Screenshots (wide and
 * 390 px) go to packages/backoffice/test-results/ (git-ignored).
 */
const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = join(PKG, 'test-results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'backoffice test password';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** Σ of 6-decimal strings, exact. */
function sum6(values: string[]): string {
  let t = 0n;
  for (const v of values) {
    const [w = '0', f = ''] = v.replace('-', '').split('.');
    const n = BigInt(w) * 1_000_000n + BigInt(f.padEnd(6, '0').slice(0, 6));
    t += v.startsWith('-') ? -n : n;
  }
  const a = t < 0n ? -t : t;
  return `${t < 0n ? '-' : ''}${a / 1_000_000n}.${(a % 1_000_000n).toString().padStart(6, '0')}`;
}

/** axe-core's serious and critical violations of the page as it is. */
async function axeViolations(page: Page): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (c?: unknown) => Promise<AxeResult> } }).axe;
    type AxeResult = {
      violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
    };
    const r = await axe.run(document);
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
      }));
  });
}

describe('the backoffice: running a book, and a partner serving itself', () => {
  let p: TestPlatform;
  let other: TestPartner;
  let relay: Awaited<ReturnType<typeof relayPartner>>;
  let browser: Browser;
  let eventId: string;
  let base: string;

  const admin = (method: string, path: string, body?: unknown) =>
    p.call(method, path, body === undefined ? {} : { body });

  async function placeBet(
    playerId: string,
    stake = '10',
  ): Promise<{ status: number; json: { id: string; status: number } }> {
    await p.walletApi.deposit(playerId, '100');
    const session = await p.session(playerId);
    return p.call('POST', '/frame-api/bets', {
      token: session,
      body: {
        bet_type: 'single',
        stake,
        currency: 'EUR',
        odds_strategy: 3,
        selections: [{ sport_event_id: eventId, market_id: '1', odd_id: '1', odds: '1.5' }],
      },
    });
  }

  beforeAll(async () => {
    if (!existsSync(join(PKG, 'dist', 'index.html'))) {
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: PKG, stdio: 'inherit' });
    }
    mkdirSync(SHOTS, { recursive: true });
    p = await startPlatform({ whiteLabel: { name: 'Acme Bets' } });
    base = p.bookie.url;
    other = await createPartner({ baseUrl: base }, { name: 'Other partner' });
    // the partner's callbacks pass through a relay to the wallet, which records them with their signatures
    relay = await relayPartner(p.wallet.url, () => undefined);
    expect(
      (await admin('PATCH', `/admin/white-labels/${p.partner.whiteLabelId}`, { callback_url: relay.url }))
        .status,
    ).toBe(200);
    for (const body of [
      { email: 'trader@bookie.test', role: 'operator', password: PASSWORD },
      {
        email: 'admin@acme.test',
        role: 'partner_admin',
        white_label_id: p.partner.whiteLabelId,
        password: PASSWORD,
      },
    ]) {
      expect((await admin('POST', '/admin/users', body)).status).toBe(201);
    }
    const ev = sampleEvent({ markets: 2 });
    expect((await admin('POST', '/trading/sport-events', ev)).status).toBe(201);
    eventId = ev.id as string;
    await waitUntil(async () => {
      const r = await placeBet('player-1');
      return r.status === 200 && r.json.status === 1;
    }, 30_000);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await relay?.close();
    await p?.close();
  });

  async function logIn(email: string, width = 1280): Promise<Page> {
    // axe-core is injected as a script: the page's CSP (no inline scripts) is bypassed for the test only
    const context = await browser.newContext({ viewport: { width, height: 860 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${base}/backoffice/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByTestId('who').waitFor();
    return page;
  }

  it('an operator reads the home, opens the heatmap, suspends a market from the keyboard and changes a limit', async () => {
    const page = await logIn('trader@bookie.test');
    const wl = p.partner.whiteLabelId;

    // the home: the period's turnover and GGR are the reports API's for the same window
    const from = `${day(-6)}T00:00:00Z`;
    const to = `${day(1)}T00:00:00Z`;
    const report = (await p.call('GET', `/reports/daily?from=${from}&to=${to}`, { token: p.accessToken }))
      .json.items as Array<{ currency: string; stake: string; ggr: string; bets_accepted: number }>;
    const eur = report.filter((r) => r.currency === 'EUR');
    const turnover = page.getByTestId('period-turnover-EUR');
    await turnover.waitFor();
    expect(await turnover.getAttribute('data-value')).toBe(sum6(eur.map((r) => r.stake)));
    expect(await page.getByTestId('period-ggr-EUR').getAttribute('data-value')).toBe(
      sum6(eur.map((r) => r.ggr)),
    );
    expect(await turnover.textContent()).toContain('EUR 10.00');
    const overview = (await admin('GET', `/admin/overview?from=${from}&to=${to}`)).json;
    expect(overview.totals.find((t: { currency: string }) => t.currency === 'EUR').turnover).toBe(
      sum6(eur.map((r) => r.stake)),
    );
    expect(await page.getByTestId('today-turnover-EUR').getAttribute('data-value')).toBe('10.000000');
    expect(await page.getByTestId('liability-total').getAttribute('data-value')).toBe(
      overview.liability.total_eur,
    );
    await page.getByTestId('chart-Turnover (EUR)').locator('canvas').waitFor();
    await page.screenshot({ path: join(SHOTS, 'backoffice-home.png'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    // risk settings: a limit set from the form; GET /restrictions follows it
    const restrictions = async () =>
      (
        await p.call(
          'GET',
          `/restrictions?player_id=player-9&type_code=0&currency_code=EUR&selection=${eventId}/1/1/1.5`,
          { token: p.accessToken },
        )
      ).json as { max_bet: { value: string } | null };
    const before = await restrictions();
    await page.goto(`${base}/backoffice/#/risk-settings`);
    const form = page.getByRole('form', { name: 'Set a liability limit' });
    await form.locator('select[name="white_label_id"]').selectOption(wl);
    await form.locator('input[name="liability_eur"]').fill('12,5');
    await form.getByRole('button', { name: 'Set limit' }).click();
    await page.getByText('Limit (EUR): a decimal number').waitFor();
    await form.locator('input[name="liability_eur"]').fill('100');
    await form.getByRole('button', { name: 'Set limit' }).click();
    const row = page.locator(`tr[data-limit="${wl}|*|prematch"]`);
    await row.waitFor();
    expect(await row.locator('[data-value]').getAttribute('data-value')).toBe('100.000000');
    // the exposure of outcome 1|1 is 5 EUR (stake 10 at 1.5): 95 EUR of room at 0.5 per EUR staked
    await waitUntil(async () => (await restrictions()).max_bet?.value === '190.000000', 20_000);
    expect(before.max_bet?.value).not.toBe('190.000000');
    await page.getByTestId('risk-changes').getByText('risk.limit').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'backoffice-risk-settings.png'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    // the heatmap: the event's 1X2 column at 5 % of its limit
    await page.goto(`${base}/backoffice/#/heatmap`);
    const cell = page.locator(`[data-testid="heatmap"] tr[data-event="${eventId}"] td[data-market-type="1"]`);
    await expect.poll(() => cell.textContent()).toBe('5 %');
    expect(await cell.getAttribute('class')).toBe('h-low');
    await page.screenshot({ path: join(SHOTS, 'backoffice-heatmap.png'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    // the live book by sport and tournament; a market suspended from the keyboard, seen in the feed and audited
    await cell.getByRole('link').click();
    await page.getByTestId('event-book').waitFor();
    expect(await page.locator(`tr[data-event="${eventId}"] a`).textContent()).toBe('Arsenal vs Chelsea');
    await page.getByRole('heading', { name: 'Football' }).waitFor();
    const outcome = page.locator('button[data-odd="1|1"]');
    await expect
      .poll(() => outcome.locator('[data-field="exposure"]').getAttribute('data-value'))
      .toBe('5.000000');
    expect(await outcome.textContent()).toContain('Arsenal');
    await outcome.focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-odd'))).toBe('2|1');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('s');
    await expect.poll(() => page.getByTestId('trader-said').textContent()).toBe('1x2: suspended');
    await expect
      .poll(() => page.locator('tr[data-market="1"] [data-field="market-status"]').textContent())
      .toBe('suspended');
    await waitUntil(async () => {
      const res = await fetch(`${base}/all`, { headers: { authorization: `Bearer ${p.accessToken}` } });
      const events = (await res.text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; markets: Record<string, { status: number }> });
      return events.find((e) => e.id === eventId)?.markets['1']?.status === 1;
    }, 20_000);
    // a price moved with "+" on the next outcome, then the market reactivated with "s"
    await page.locator('button[data-odd="2|1"]').focus();
    await page.keyboard.press('+');
    await expect.poll(() => page.getByTestId('trader-said').textContent()).toBe('Arsenal: 1.5 → 1.51');
    await page.screenshot({ path: join(SHOTS, 'backoffice-live-book.png'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('button[data-odd="1|1"]').focus();
    await page.keyboard.press('s');
    await expect.poll(() => page.getByTestId('trader-said').textContent()).toBe('1x2: active');
    const audit = await admin('GET', '/admin/audit-log?actor=user:trader@bookie.test&limit=50');
    const actions = audit.json.items.map((a: { action: string }) => a.action);
    expect(actions.filter((a: string) => a === 'PATCH /trading/sport-events/:id/markets')).toHaveLength(3);
    expect(actions).toEqual(expect.arrayContaining(['PUT /admin/risk/limits']));

    // settlement as figures, not JSON
    await page.goto(`${base}/backoffice/#/settlement`);
    await expect.poll(() => page.locator('[data-field="leader"]').textContent()).toBe('this process');
    expect(await page.locator('pre.json').count()).toBe(0);

    // 390 px: the navigation collapses behind "Menu"; tables scroll inside their card, not the page
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/backoffice/#/home`);
    await page.getByTestId('period-turnover-EUR').waitFor();
    expect(await page.locator('nav#screens').isVisible()).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'backoffice-home-narrow.png'), fullPage: true });
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Live book' }).click();
    await page
      .getByTestId('event-book')
      .or(page.getByRole('heading', { name: 'Football' }))
      .first()
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto(`${base}/backoffice/#/live-book/${eventId}`);
    await page.getByTestId('event-book').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'backoffice-live-book-narrow.png'), fullPage: true });
    await page.context().close();
  }, 180_000);

  it('a partner creates a credential and rotates the signing secret, each shown once, and sees only its own data', async () => {
    const page = await logIn('admin@acme.test');

    // a credential: its secret shown once at creation, gone after a reload, and it buys a token
    await page.goto(`${base}/backoffice/#/credentials`);
    await page.getByRole('button', { name: 'Create credential' }).click();
    const clientId = (await page.locator('[data-field="client_id"]').textContent()) as string;
    const clientSecret = (await page.locator('[data-field="client_secret"]').textContent()) as string;
    const token = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);
    expect(await axeViolations(page)).toEqual([]);
    await page.reload();
    await page.locator(`tr[data-client-id="${clientId}"]`).waitFor();
    expect(await page.getByTestId('secret-once').count()).toBe(0);
    expect(await page.content()).not.toContain(clientSecret);

    // the signing secret: shown once at rotation, never again on the screen
    await page.goto(`${base}/backoffice/#/integration`);
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    const secret = (await page.locator('code[data-field="secret"]').textContent()) as string;
    expect(secret).toMatch(/^whsec_/);
    await page.screenshot({ path: join(SHOTS, 'backoffice-integration.png'), fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
    await page.reload();
    await page.getByRole('button', { name: 'Rotate signing secret' }).waitFor();
    expect(await page.content()).not.toContain(secret);

    // a callback signed with the new secret, verified with the SDK
    const seen = relay.received.length;
    await placeBet('player-7');
    await waitUntil(() => relay.received.slice(seen).some((r) => r.path === '/bet/place'), 30_000);
    const place = relay.received.slice(seen).find((r) => r.path === '/bet/place');
    expect(place).toBeDefined();
    expect(verifyCallback(place?.headers ?? {}, place?.body ?? '', secret).id).toBeTruthy();

    // only its own white label: its bets; the operator's screens and another white label are closed to it
    await page.goto(`${base}/backoffice/#/bets`);
    await page.getByRole('button', { name: 'Search' }).waitFor();
    expect(await page.getByRole('link', { name: 'Home' }).count()).toBe(0);
    const answers = await page.evaluate(
      async ({ theirs }) => ({
        overview: (await fetch('/admin/overview?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z')).status,
        theirWhiteLabel: (await fetch(`/admin/white-labels/${theirs}`)).status,
        exposure: (await fetch('/admin/risk/exposure')).status,
      }),
      { theirs: other.whiteLabelId },
    );
    expect(answers).toEqual({ overview: 403, theirWhiteLabel: 404, exposure: 403 });
    for (const screen of ['bets', 'callbacks', 'players', 'bonuses', 'reports']) {
      await page.goto(`${base}/backoffice/#/${screen}`);
      await page.locator('main section, main h2').first().waitFor();
      const v = await axeViolations(page);
      expect(v, screen).toEqual([]);
    }
    await page.context().close();
  }, 180_000);
});
