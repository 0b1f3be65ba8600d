import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureFrameBuilt } from '@bookie/frame/build';
import { FRAME_ROOT } from '@bookie/frame/paths';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FrameDemo, startFrameDemo } from '../../cli/frame-demo.js';
import { type ReplayPlatform, startReplayPlatform } from '../../cli/replay.js';
import { launchChromium, type TradedFixture, tradeDemoFixtures, until } from '../../testing/browser.js';

/**
 * A player builds a bet builder by clicking, in Debian's Chromium on a partner's page: an event's page → the "Bet
 * builder" panel → the home win, then over 2.5 goals (the combined odds come from the calculator; the other total is
 * then blocked: one pick per market) → "Add to slip" (one selection with its two legs) → a 10 EUR single placed →
 * its receipt → "My bets" lists the builder's legs.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the test leaves what a player saw (the builder composed, the slip), for a person to look at. */
const SHOTS = join(FRAME_ROOT, '.tmp', 'screenshots');

describe('a bet builder in the betting frame', () => {
  let platform: ReplayPlatform;
  let browser: Browser;
  let demo: FrameDemo | undefined;
  let fixture: TradedFixture;

  beforeAll(async () => {
    await ensureFrameBuilt();
    platform = await startReplayPlatform({ bookie: 'process', wallet: 'process', logLevel: 'warn' });
    [fixture] = (await tradeDemoFixtures(platform, 0, 1)) as [TradedFixture];
    browser = await launchChromium(CHROMIUM);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await demo?.site.stop();
    await platform?.stop();
  }, 60_000);

  it('builds home win + over 2.5 by clicking, adds it to the slip as one selection and places it', async () => {
    demo = await startFrameDemo(platform, { playerId: 'builder-player', deposit: '1000' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => {
      if (m.type() === 'error') console.error('[browser]', m.text());
    });
    await page.goto(`${demo.site.url}/?odds=decimal`);
    await page.locator('[data-testid=sport][data-sport-id=football]').click();
    await page.locator(`[data-event-id="${fixture.id}"] [data-testid=event-open]`).click();
    const panel = page.getByTestId('builder');
    await panel.waitFor();

    const x12 = fixture.markets.find((m) => m.type_id === 1)!;
    const total = fixture.markets.find((m) => m.type_id === 18 && m.specifiers.total === '2.5')!;
    const oddOf = (marketId: string, oddId: string) =>
      panel.locator(
        `[data-testid=builder-market][data-market-id="${marketId}"] [data-testid=builder-odd][data-odd-id="${oddId}"]`,
      );
    const [home] = Object.keys(x12.odds);
    const [over, under] = Object.keys(total.odds).sort((a, b) =>
      a === 'over' || a === '12' ? -1 : b === 'over' || b === '12' ? 1 : 0,
    );
    // the first pick: enabled once the selections are known, then the combined odds show
    await until('the home win pickable', async () => (await oddOf(x12.id, home!).isEnabled()) || undefined);
    await oddOf(x12.id, home!).click();
    const odds = panel.getByTestId('builder-odds');
    await until(
      'one leg priced',
      async () => /^\d+\.\d\d$/.test((await odds.textContent()) ?? '') || undefined,
    );
    const one = await odds.textContent();
    await until('over 2.5 pickable', async () => (await oddOf(total.id, over!).isEnabled()) || undefined);
    await oddOf(total.id, over!).click();
    await until('two legs priced', async () => {
      const t = (await odds.textContent()) ?? '';
      return (/^\d+\.\d\d$/.test(t) && t !== one) || undefined;
    });
    expect(await oddOf(total.id, under!).isDisabled()).toBe(true);
    expect(await oddOf(total.id, under!).getAttribute('data-block')).toBe('sameMarket');
    const combined = (await odds.textContent())!;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'bet-builder-composed.png') });

    // into the slip as one selection with its two legs
    await panel.getByTestId('builder-add').click();
    const inSlip = page.getByTestId('slip-builder');
    await inSlip.waitFor();
    expect(await page.locator('[data-testid=slip-selection]').count()).toBe(0);
    expect(await inSlip.locator('[data-testid=slip-builder-leg]').count()).toBe(2);
    expect(await inSlip.getByTestId('slip-odds').textContent()).toBe(combined);
    await page.screenshot({ path: join(SHOTS, 'bet-builder-slip.png') });

    // placed as a single
    await page.getByTestId('type-single').click();
    await page.locator('[data-testid=preset]', { hasText: /^10$/ }).click();
    await page.getByTestId('place').click();
    const receipt = page.getByTestId('receipt');
    await receipt.waitFor({ timeout: 15_000 });
    expect(await receipt.locator('[data-testid=receipt-builder]').count()).toBe(1);
    expect(await receipt.getByTestId('receipt-stake').textContent()).toMatch(/^10\.00 EUR$/);

    // My bets: the open bet lists the builder's legs
    await page.getByTestId('tab-history').click();
    const legs = page.locator('[data-testid=open-bet] [data-testid=history-builder-leg]');
    await until('the builder legs in My bets', async () => (await legs.count()) === 2 || undefined);
    for (const l of await legs.allTextContents()) expect(l).not.toMatch(/#/);
    await page.close();
  }, 180_000);
});
