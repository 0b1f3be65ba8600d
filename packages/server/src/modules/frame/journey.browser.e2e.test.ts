import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ensureFrameBuilt } from '@bookie/frame/build';
import { FRAME_ROOT } from '@bookie/frame/paths';
import { fixtureOf, readFootballData } from '@bookie/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEASON } from '../../cli/demo.js';
import { type FrameDemo, startFrameDemo } from '../../cli/frame-demo.js';
import { type ReplayPlatform, startReplayPlatform } from '../../cli/replay.js';
import {
  admin,
  launchChromium,
  type TradedFixture,
  tradeDemoFixtures,
  until,
} from '../../testing/browser.js';

/**
 * A player's whole journey through the betting frame, by clicking, in Debian's Chromium on a partner's page: sport →
 * tournament → an event's page → selections from two markets → an odds change in the slip, accepted → an express
 * placed → its receipt → the bet in the history with its names after the events were settled and left the book. Wide
 * (English, dark host) and at 390 px (Arabic, right to left, light host). axe-core checks every screen for serious
 * and critical violations. Screenshots go to packages/frame/.tmp/screenshots/journey-*.png (git-ignored).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(FRAME_ROOT, '.tmp', 'screenshots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical violations on the page (the frame renders in an open shadow root: axe reads it). */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            o: unknown,
          ): Promise<{
            violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }>;
          }>;
        };
      }
    ).axe;
    const r = await axe.run({ include: [['#betting']] }, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
  });
}

describe('a player journey through the betting frame', () => {
  let platform: ReplayPlatform;
  let browser: Browser;
  const demos: FrameDemo[] = [];
  const fixtures: TradedFixture[] = [];
  const competitors = new Map<string, string[]>();

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
    await ensureFrameBuilt();
    platform = await startReplayPlatform({ bookie: 'process', wallet: 'process', logLevel: 'warn' });
    // six real Premier League fixtures kick off tomorrow; the sixth is in play with a score and a clock
    fixtures.push(...(await tradeDemoFixtures(platform, 0, 6)));
    const season = await readFootballData(DEMO_SEASON);
    for (const [i, row] of season.matches.slice(0, 6).entries())
      competitors.set(fixtures[i]!.id, Object.keys(fixtureOf(row).competitors));
    const live = fixtures[5]!;
    const [home, away] = competitors.get(live.id)!;
    await admin(platform, 'PATCH', `/trading/sport-events/${live.id}/fixture`, {
      status: 1,
      meta: { time: '67', game_state: '2nd half' },
    });
    await admin(platform, 'PATCH', `/trading/sport-events/${live.id}/scores`, {
      competitors: {
        [home!]: { total: { id: 'total', type: 1, number: 0, points: '2' } },
        [away!]: { total: { id: 'total', type: 1, number: 0, points: '1' } },
      },
    });
    browser = await launchChromium(CHROMIUM);
    mkdirSync(SHOTS, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    for (const d of demos) await d.site.stop();
    await platform?.stop();
  }, 60_000);

  /** The journey on one page; `tag` names its screenshots. */
  async function journey(page: Page, tag: string, narrow: boolean, a: TradedFixture, b: TradedFixture) {
    const shot = (name: string) => page.screenshot({ path: join(SHOTS, `journey-${tag}-${name}.png`) });
    const frame = page.getByTestId('frame');
    // sport → tournament → events
    await page.locator('[data-testid=sport][data-sport-id=football]').click();
    const tournament = page.locator('[data-testid=tournament]').first();
    await tournament.click();
    await until(
      'the tournament pressed',
      async () => (await tournament.getAttribute('aria-pressed')) === 'true',
    );
    await until(
      'the events of the tournament',
      async () => (await page.locator('[data-testid=event]').count()) >= 3,
    );
    // a live event shows its score and clock
    const liveCard = page.locator(`[data-testid=event][data-event-id="${fixtures[5]!.id}"]`);
    if (!narrow) {
      await page.getByTestId('tab-live').click();
      await until(
        'the live score 2 : 1',
        async () => (await liveCard.getByTestId('score').textContent()) === '2 : 1',
      );
      expect(await liveCard.getByTestId('clock').textContent()).toContain('67');
      await shot('live');
      await page.getByTestId('tab-prematch').click();
    }
    await shot('list');
    expect(await axeViolations(page), 'axe on the list').toEqual([]);

    // the event page: every market, grouped by kind, collapsible
    await page.locator(`[data-event-id="${a.id}"] [data-testid=event-open]`).click();
    const eventPage = page.getByTestId('event-page');
    await eventPage.waitFor();
    const groups = eventPage.locator('[data-testid=market-group]');
    expect(await groups.count()).toBeGreaterThanOrEqual(3);
    expect(await eventPage.locator('[data-testid=market]').count()).toBe(a.markets.length);
    expect(await frame.evaluate((el) => getComputedStyle(el).direction)).toBe(narrow ? 'rtl' : 'ltr');
    // a group closes and opens again
    const goals = eventPage.locator('[data-testid=market-group][data-kind=goals]');
    await goals.locator('summary').click();
    expect(await goals.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await goals.locator('summary').click();
    // the main market's first outcome: in, out again (a second tap removes it), in
    const main = eventPage.locator('[data-testid=market-group][data-kind=main] [data-testid=odd]').first();
    await main.click();
    await until(
      'one selection',
      async () => (await page.locator('[data-testid=slip-selection]').count()) === 1,
    );
    await main.click();
    await until(
      'the selection removed',
      async () => (await page.locator('[data-testid=slip-selection]').count()) === 0,
    );
    await main.click();
    expect(await main.getAttribute('aria-pressed')).toBe('true');
    await shot('event');
    expect(await axeViolations(page), 'axe on the event page').toEqual([]);

    // the other event's goals market
    await page.getByTestId('back').click();
    await page.locator(`[data-event-id="${b.id}"] [data-testid=event-open]`).click();
    await page.locator(`[data-testid=event-page][data-event-id="${b.id}"]`).waitFor();
    await page
      .locator('[data-testid=market-group][data-kind=goals] [data-testid=odd]:not([disabled])')
      .first()
      .click();
    await until(
      'two selections',
      async () => (await page.locator('[data-testid=slip-selection]').count()) === 2,
    );

    // the slip: an express; on a narrow screen a bottom sheet opened from its bar
    if (narrow) {
      await page.getByTestId('slip-toggle').click();
      await until(
        'the sheet open',
        async () => (await page.getByTestId('slip-toggle').getAttribute('aria-expanded')) === 'true',
      );
    }
    await page.getByTestId('type-express').click();
    await page.locator('[data-testid=preset]', { hasText: /^10$/ }).click();
    await page.getByTestId('total-odds').waitFor();
    await page.getByTestId('payout').waitFor();
    // the largest stake the slip can place, before placing
    await page.getByTestId('preset-max').waitFor();

    // the odds of the first selection move: the slip shows old and new and waits for the player
    const m = a.markets.find((x) => x.template === '1x2')!;
    const odd = Object.values(m.odds)[0]!;
    const next = Number(odd.value) > 3 ? '2.22' : '3.33';
    await admin(platform, 'PATCH', `/trading/sport-events/${a.id}/markets`, {
      markets: [{ id: m.id, odds: [{ id: odd.id, value: next }] }],
    });
    await page.getByTestId('odds-change').waitFor();
    await page.getByTestId('accept-changes').waitFor();
    expect(await page.getByTestId('place').count()).toBe(0);
    await until(
      'the change announced',
      async () => ((await page.getByTestId('announce').textContent()) ?? '') !== '',
    );
    await shot('slip-changed');
    expect(await axeViolations(page), 'axe on the slip').toEqual([]);
    await page.getByTestId('accept-changes').click();
    expect(await page.getByTestId('odds-change').count()).toBe(0);
    const total = await page.getByTestId('total-odds').textContent();
    expect(total).toMatch(/^\d+\.\d\d$/);

    // place, and read the receipt
    await page.getByTestId('place').click();
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor({ timeout: 15_000 });
    const betId = (await receipt.getByTestId('receipt-id').textContent()) ?? '';
    expect(betId).toMatch(/^[0-9a-f-]{36}$/);
    const legs = receipt.locator('[data-testid=receipt-selection]');
    expect(await legs.count()).toBe(2);
    for (const leg of await legs.allTextContents()) expect(leg).not.toMatch(/#|[0-9a-f]{8}-[0-9a-f]{4}/);
    expect(await receipt.getByTestId('receipt-stake').textContent()).toMatch(/^10\.00 EUR$/);
    expect(await receipt.getByTestId('receipt-return').textContent()).toMatch(/^\d+\.\d\d EUR$/);
    await until(
      'the acceptance announced',
      async () => ((await page.getByTestId('announce').textContent()) ?? '') !== '',
    );
    await shot('receipt');
    expect(await axeViolations(page), 'axe on the receipt').toEqual([]);
    return betId;
  }

  /** Results both events' markets of the bet (the first outcome of the 1X2 wins, the first of each total wins) and ends them: they leave the book. */
  async function settleAndEnd(a: TradedFixture, b: TradedFixture) {
    for (const f of [a, b]) {
      await admin(platform, 'PATCH', `/trading/sport-events/${f.id}/markets`, {
        markets: f.markets.map((m) => {
          const [first, ...rest] = Object.values(m.odds);
          return {
            id: m.id,
            status: 3,
            odds: [{ id: first!.id, status: 1 }, ...rest.map((o) => ({ id: o.id, status: 2 }))],
          };
        }),
      });
      await admin(platform, 'PATCH', `/trading/sport-events/${f.id}/fixture`, { status: 3 });
    }
  }

  async function history(page: Page, betId: string, tag: string, url: string) {
    // a fresh frame: the events are no longer on the book, the history keeps the names
    await page.goto(url);
    await page.getByTestId('tab-history').click();
    const bet = page.locator(`[data-testid=history-bet][data-bet-id="${betId}"]`);
    await until(
      'the bet settled as won',
      async () => {
        if ((await bet.count()) > 0 && (await bet.getAttribute('data-outcome')) === 'won') return true;
        await page.getByTestId('tab-history').click();
        return false;
      },
      40_000,
    );
    const names = await bet.locator('[data-testid=history-selection]').allTextContents();
    expect(names).toHaveLength(2);
    for (const n of names) expect(n).not.toMatch(/#|[0-9a-f]{8}-[0-9a-f]{4}/);
    await page.getByTestId('filter-settled').click();
    expect(await bet.count()).toBe(1);
    await page.getByTestId('filter-declined').click();
    expect(await bet.count()).toBe(0);
    await page.getByTestId('filter-all').click();
    await page.screenshot({ path: join(SHOTS, `journey-${tag}-history.png`) });
    expect(await axeViolations(page), 'axe on the history').toEqual([]);
    return names;
  }

  it('wide, in English on a dark host page', async () => {
    const demo = await startFrameDemo(platform, { playerId: 'journey-wide', deposit: '1000' });
    demos.push(demo);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => {
      if (m.type() === 'error') console.error('[browser]', m.text());
    });
    await page.goto(`${demo.site.url}/?odds=decimal`);
    const [a, b] = [fixtures[0]!, fixtures[1]!];
    const betId = await journey(page, 'wide', false, a, b);
    await settleAndEnd(a, b);
    const names = await history(page, betId, 'wide', `${demo.site.url}/?odds=decimal`);
    expect(names.join(' ')).toMatch(/Match result|Total goals/);
    await page.close();
  }, 180_000);

  it('at 390 px, in Arabic (right to left) on a light host page: a bottom sheet, no horizontal scroll, 44 px targets', async () => {
    const demo = await startFrameDemo(platform, { playerId: 'journey-narrow', deposit: '1000' });
    demos.push(demo);
    const page = await browser.newPage({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    page.setDefaultTimeout(10_000);
    const url = `${demo.site.url}/?locale=ar&light=1`;
    await page.goto(url);
    await page.locator('[data-testid=event]').first().waitFor();
    expect(await page.getByTestId('frame').getAttribute('dir')).toBe('rtl');
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    // every visible control of the frame is at least 44 px tall
    const small = await page.getByTestId('frame').evaluate(
      (root) =>
        Array.from(root.querySelectorAll('button, select, input'))
          .map((el) => el.getBoundingClientRect())
          .filter((r) => r.width > 0 && r.height > 0 && r.height < 44).length,
    );
    expect(small).toBe(0);
    const [a, b] = [fixtures[2]!, fixtures[3]!];
    const betId = await journey(page, 'narrow', true, a, b);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await settleAndEnd(a, b);
    const names = await history(page, betId, 'narrow', url);
    // Arabic market and outcome names, no English ones
    expect(names.join(' ')).not.toMatch(
      /Match result|Total goals|Asian handicap|\bover\b|\bunder\b|\bdraw\b/i,
    );
    expect(names.join(' ')).toMatch(/[\u0600-\u06FF]/);
    await page.close();
  }, 180_000);
});
