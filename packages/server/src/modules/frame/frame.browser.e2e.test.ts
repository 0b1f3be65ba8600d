import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BetView } from '@bookie/contracts';
import { displayOdds, parseOddsIn } from '@bookie/core';
import { ensureFrameBuilt } from '@bookie/frame/build';
import { FRAME_ROOT } from '@bookie/frame/paths';
import { BookieClient } from '@bookie/sdk';
import type { openingMarkets } from '@bookie/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { type FrameDemo, startFrameDemo } from '../../cli/frame-demo.js';
import { type ReplayPlatform, startReplayPlatform } from '../../cli/replay.js';
import { admin, launchChromium, tradeDemoFixtures, until, walletBalance } from '../../testing/browser.js';

/**
 * The betting frame in a real browser (Debian's Chromium through playwright-core) on a partner's page of another
 * origin, against Bookie and the reference wallet as real processes. One browser, two pages (wide and narrow).
 * Screenshots go to packages/frame/.tmp/screenshots/ (git-ignored).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(FRAME_ROOT, '.tmp', 'screenshots');
const PLAYER = 'frame-e2e';

const balance = (p: ReplayPlatform) => walletBalance(p, PLAYER);

describe('the betting frame in a browser', () => {
  let platform: ReplayPlatform;
  let demo: FrameDemo;
  let browser: Browser;
  let page: Page;
  const events: { id: string; markets: ReturnType<typeof openingMarkets> }[] = [];
  const tokens: string[] = [];
  const requested: string[] = [];
  let firstRenderMs = 0;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
    // Bookie serves the build it finds at start
    await ensureFrameBuilt();
    process.env.HEARTBEAT_INTERVAL_S = '1';
    platform = await startReplayPlatform({ bookie: 'process', wallet: 'process', logLevel: 'warn' });
    delete process.env.HEARTBEAT_INTERVAL_S;
    // four real Premier League fixtures, kick-off tomorrow; the last one in play
    events.push(...(await tradeDemoFixtures(platform, 0, 4)));
    await admin(platform, 'PATCH', `/trading/sport-events/${events[3]!.id}/fixture`, { status: 1 });
    demo = await startFrameDemo(platform, { playerId: PLAYER, deposit: '10000' });
    browser = await launchChromium(CHROMIUM);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => {
      if (m.type() === 'error') console.error('[browser]', m.text());
    });
    page.on('request', (req) => {
      requested.push(req.url());
    });
    page.on('response', async (res) => {
      if (res.url().endsWith('/session') && res.ok())
        tokens.push(((await res.json()) as { token: string }).token);
    });
    mkdirSync(SHOTS, { recursive: true });
  }, 180_000);

  beforeEach((ctx) => {
    onTestFailed(async () => {
      await page?.screenshot({ path: join(SHOTS, `failed-${ctx.task.name.replace(/\W+/g, '-')}.png`) });
    });
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.site.stop();
    await platform?.stop();
  }, 60_000);

  const frameCount = (sel: string) => page.locator(sel).count();
  const oddButton = (eventIndex: number, n = 0) =>
    page.locator(`[data-event-id="${events[eventIndex]!.id}"] [data-testid=odd]`).nth(n);
  async function place(stake: string): Promise<BetView['status'][]> {
    await page.getByTestId('stake').fill(stake);
    await page.getByTestId('place').click();
    await page.locator('[data-testid=result]').waitFor({ timeout: 10_000 });
    return page
      .locator('[data-testid=result] [data-result]')
      .evaluateAll((els) => els.map((e) => (e.getAttribute('data-result') === 'accepted' ? 1 : 2)));
  }

  it('loads from another origin into a shadow root and lists the events', async () => {
    expect(new URL(demo.site.url).origin).not.toBe(new URL(platform.bookieUrl).origin);
    await page.goto(`${demo.site.url}/?odds=decimal`);
    await until('the event list', async () => (await frameCount('[data-testid=event]')) >= 3);
    const shadow = await page.evaluate(() => {
      const host = document.querySelector('#betting > [data-bookie-frame]');
      return { shadow: !!host?.shadowRoot, light: host?.children.length };
    });
    expect(shadow).toEqual({ shadow: true, light: 0 });
    firstRenderMs = await until('the first-render measure', () =>
      page.evaluate(() => performance.getEntriesByName('bookie:first-events')[0]?.duration),
    );
    console.info(`first render of the event list: ${firstRenderMs.toFixed(0)} ms (loopback, measured)`);
    expect(firstRenderMs).toBeGreaterThan(0);
    await page.getByTestId('banner').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'events-wide.png') });
  });

  it('updates odds live from the stream', async () => {
    const m = events[0]!.markets[0]!;
    const odd = Object.values(m.odds)[0]!;
    const button = page.locator(
      `[data-event-id="${events[0]!.id}"] [data-market-id="${m.id}"] [data-odd-id="${odd.id}"] [data-testid=odd-value]`,
    );
    const before = await button.textContent();
    const next = before === '7.77' ? '8.88' : '7.77';
    await admin(platform, 'PATCH', `/trading/sport-events/${events[0]!.id}/markets`, {
      markets: [{ id: m.id, odds: [{ id: odd.id, value: next }] }],
    });
    await until('the new odds', async () => (await button.textContent()) === next);
  });

  it('places a single, an express and a system bet, accepted by the wallet; the balance moves', async () => {
    const start = await balance(platform);
    await oddButton(0).click();
    expect(await place('10')).toEqual([1]);
    await until('the wallet to take the stake', async () => (await balance(platform)) !== start);

    await page.getByTestId('type-express').click();
    await oddButton(1).click();
    await oddButton(2).click();
    await page.getByTestId('total-odds').waitFor();
    expect(await place('5')).toEqual([1]);

    await page.getByTestId('type-system').click();
    await oddButton(0, 1).click();
    await oddButton(1, 1).click();
    await oddButton(2, 1).click();
    await page.getByTestId('size-2').waitFor();
    expect(await place('3')).toEqual([1]);
    await page.screenshot({ path: join(SHOTS, 'slip-wide.png') });
  });

  it('shows a decline with its reason in plain words', async () => {
    await page.getByTestId('type-single').click();
    await oddButton(1).click();
    expect(await place('5000')).toEqual([2]);
    const reason = await page.getByTestId('reason').first().textContent();
    expect(reason).toMatch(/^Maximum stake for this bet: \d+\.\d\d EUR$/);
    // one root cause, with a button to take that stake
    expect(await page.getByTestId('reason').count()).toBe(1);
    await page.getByTestId('use-stake').waitFor();
    await page.screenshot({ path: join(SHOTS, 'decline-wide.png') });
  });

  it('shows the history with the bets placed and the settled amount', async () => {
    await page.getByTestId('tab-history').click();
    // open bets (with their cash-out) first, then the settled and declined ones
    await until(
      'four bets in the history',
      async () => (await frameCount('[data-testid=history-bet], [data-testid=open-bet]')) >= 4,
    );
    // the first match's 1X2 is resulted: the home win (the single at 7.77) wins
    const m = events[0]!.markets[0]!;
    const [home, ...others] = Object.values(m.odds);
    await admin(platform, 'PATCH', `/trading/sport-events/${events[0]!.id}/markets`, {
      markets: [
        {
          id: m.id,
          status: 3,
          odds: [{ id: home!.id, status: 1 }, ...others.map((o) => ({ id: o.id, status: 2 }))],
        },
      ],
    });
    const settled = page.locator('[data-testid=settled-amount]', { hasText: '77.70 EUR' });
    await until(
      'the single settled at 10 × 7.77',
      async () => {
        if ((await settled.count()) > 0) return true;
        await page.getByTestId('tab-history').click(); // reloads the history
        return false;
      },
      30_000,
    );
    await page.screenshot({ path: join(SHOTS, 'history-wide.png') });
    await page.getByTestId('tab-prematch').click();
  });

  it('switches the odds format without a reload', async () => {
    const first = oddButton(0).locator('[data-testid=odd-value]');
    await page.getByTestId('odds-format').selectOption('fractional');
    await until('fractional odds', async () => /^\d+\/\d+$/.test((await first.textContent()) ?? ''));
    await page.getByTestId('odds-format').selectOption('american');
    await until('american odds', async () => /^[+-]\d+\.\d\d$/.test((await first.textContent()) ?? ''));
    // the host's API does the same, and changes the palette live
    type Api = { selectOddFormat(f: string): void; updatePalette(p: object): void };
    // what the American odds shown mean, in Hong Kong odds
    const american = (await first.textContent()) ?? '';
    const hongkong = displayOdds(parseOddsIn(american, 'american'), 'hongkong');
    expect(hongkong).not.toBe(american);
    await page.evaluate(() => {
      const api = (window as unknown as { frameApi: Api }).frameApi;
      api.selectOddFormat('hongkong');
      api.updatePalette({ background: 'rgb(1, 2, 3)' });
    });
    await until('Hong Kong odds', async () => (await first.textContent()) === hongkong);
    expect(await page.getByTestId('odds-format').inputValue()).toBe('hongkong');
    await until(
      'the new palette',
      async () =>
        (await page.getByTestId('frame').evaluate((el) => getComputedStyle(el).backgroundColor)) ===
        'rgb(1, 2, 3)',
    );
    await page.getByTestId('odds-format').selectOption('decimal');
  });

  it('renews an expired token through the host without a reload, keeping the bet slip', async () => {
    await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
    });
    await page.getByTestId('clear').click();
    await oddButton(2).click();
    await page.getByTestId('stake').fill('2');
    const partner = new BookieClient({
      baseUrl: platform.bookieUrl,
      clientId: platform.clientId,
      clientSecret: platform.clientSecret,
    });
    await partner.expirePlayerToken(tokens.at(-1)!);
    await until(
      'the slip to keep its selection',
      async () => (await frameCount('[data-testid=slip-selection]')) === 1,
    );
    await page.getByTestId('place').click();
    await page.locator('[data-testid=result] [data-result=accepted]').waitFor();
    const host = await page.evaluate(() => ({
      marker: (window as unknown as { marker: number }).marker,
      events: (window as unknown as { hostEvents: string[] }).hostEvents,
    }));
    expect(host.marker).toBe(42);
    expect(host.events).toContain('token_renewed');
    expect(host.events).toContain('bet_placed');
    expect(tokens.length).toBeGreaterThanOrEqual(2);
  });

  it('places a single with a freebet the player has', async () => {
    await oddButton(2, 2).click();
    await page.getByTestId('bonus').selectOption({ index: 1 });
    expect(await place('5')).toEqual([1]);
    // used: no longer offered
    await until('the freebet to be used', async () => (await frameCount('[data-testid=bonus]')) === 0);
  });

  it('switches the locale without a reload, keeping the bet slip', async () => {
    await oddButton(2, 3).click();
    await page.evaluate(() =>
      (
        window as unknown as { frameApi: { updateBettingOptions(o: object): Promise<void> } }
      ).frameApi.updateBettingOptions({ locale: 'de' }),
    );
    await until(
      'German',
      async () => (await page.getByTestId('tab-history').textContent()) === 'Meine Wetten',
    );
    expect(await frameCount('[data-testid=slip-selection]')).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'slip-de-wide.png') });
  });

  it('keeps the frame session alive with heartbeats that reach the wallet', async () => {
    await until(
      'heartbeats at the wallet',
      async () => {
        const r = (await (await fetch(`${platform.walletUrl}/players/${PLAYER}/heartbeats`)).json()) as {
          count: number;
        };
        return r.count >= 2;
      },
      30_000,
    );
  });

  it('fits a narrow screen, in German', async () => {
    const narrow = await browser.newPage({ viewport: { width: 420, height: 900 } });
    await narrow.goto(`${demo.site.url}/?locale=de&light=1`);
    await narrow.locator('[data-testid=event]').first().waitFor();
    expect(await narrow.getByTestId('tab-history').textContent()).toBe('Meine Wetten');
    narrow.setDefaultTimeout(10_000);
    await narrow.locator('[data-testid=odd]:not([disabled])').first().click();
    await narrow.screenshot({ path: join(SHOTS, 'events-narrow-de.png'), fullPage: false });
    await narrow.close();
  });

  it('destroy leaves nothing behind', async () => {
    const stream = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/frame-api/stream'));
    await page.evaluate(() => (window as unknown as { frameApi: { destroy(): void } }).frameApi.destroy());
    await stream;
    const left = await page.evaluate(() => ({
      html: document.getElementById('betting')!.innerHTML,
      frames: document.querySelectorAll('[data-bookie-frame]').length,
    }));
    expect(left).toEqual({ html: '', frames: 0 });
  });

  it('never put a token in a URL', () => {
    expect(tokens.length).toBeGreaterThan(0);
    expect(requested.some((u) => u.includes('/frame-api/'))).toBe(true);
    for (const token of tokens) expect(requested.filter((u) => u.includes(token))).toEqual([]);
  });
});
