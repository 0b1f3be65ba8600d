import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { add, compare, formatMoney, parseDecimal } from '@bookie/core';
import { money } from '@bookie/frame/app/money';
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
 * Cash-out in the betting frame, in a real browser (Debian's Chromium through playwright-core) on a partner's page of
 * another origin, against Bookie and the reference wallet as real processes: the player bets, cashes out part of the
 * stake and then the rest at the quoted amounts, which the wallet credits exactly; a suspended market shows the
 * disabled button with its reason. Screenshots go to packages/frame/.tmp/screenshots/ (git-ignored); with
 * `DOC_SCREENSHOTS=1` the open-bets one also replaces docs/screenshots/frame-cash-out.png.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(FRAME_ROOT, '.tmp', 'screenshots');
const DOC_SHOT = join(FRAME_ROOT, '..', '..', 'docs', 'screenshots', 'frame-cash-out.png');
const PLAYER = 'cash-out-e2e';

const exact = (v: string) => parseDecimal(v, { field: 'amount', maxDecimals: 12 });
/** True when two decimal strings are the same amount, however many decimals each writes. */
const same = (a: string, b: string) => compare(exact(a), exact(b)) === 0;

const balance = (p: ReplayPlatform) => walletBalance(p, PLAYER);

describe('cash-out in the betting frame, in a browser', () => {
  let platform: ReplayPlatform;
  let demo: FrameDemo;
  let browser: Browser;
  let page: Page;
  const events: { id: string; markets: ReturnType<typeof openingMarkets> }[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does)`);
    await ensureFrameBuilt();
    // quotes hold 1 s, so that the test can outlast one without waiting long
    process.env.CASH_OUT_QUOTE_TTL_S = '1';
    platform = await startReplayPlatform({ bookie: 'process', wallet: 'process', logLevel: 'warn' });
    delete process.env.CASH_OUT_QUOTE_TTL_S;
    events.push(...(await tradeDemoFixtures(platform, 4, 7)));
    demo = await startFrameDemo(platform, { playerId: PLAYER, deposit: '1000' });
    browser = await launchChromium(CHROMIUM);
    page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => {
      if (m.type() === 'error') console.error('[browser]', m.text());
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

  const oddButton = (eventIndex: number, n = 0) =>
    page.locator(`[data-event-id="${events[eventIndex]!.id}"] [data-testid=odd]`).nth(n);
  const openBet = (i: number) => page.locator('[data-testid=open-bet]').nth(i);
  let singleId = '';
  let suspendedId = '';

  async function place(stake: string): Promise<void> {
    await page.getByTestId('stake').fill(stake);
    await page.getByTestId('place').click();
    await page.locator('[data-testid=result] [data-result=accepted]').waitFor();
  }

  it('places a single, an express and a single to be suspended', async () => {
    await page.goto(`${demo.site.url}/?odds=decimal`);
    await until('the event list', async () => (await page.locator('[data-testid=event]').count()) >= 3);
    const start = await balance(platform);
    await oddButton(2).click();
    await place('5');
    await page.getByTestId('type-express').click();
    await oddButton(0, 1).click();
    await oddButton(1, 2).click();
    await place('4');
    await page.getByTestId('type-single').click();
    await oddButton(0).click();
    await place('10');
    // the wallet took the three stakes
    await until('the stakes at the wallet', async () =>
      same(formatMoney(add(exact(await balance(platform)), exact('19'))), start),
    );
  });

  it('shows each open bet with its cash-out offer, and the reason where a market is suspended', async () => {
    await page.getByTestId('tab-history').click();
    await until('three open bets', async () => (await page.locator('[data-testid=open-bet]').count()) === 3);
    // newest first: the 10 EUR single, the express, the 5 EUR single
    singleId = (await openBet(0).getAttribute('data-bet-id'))!;
    suspendedId = (await openBet(2).getAttribute('data-bet-id'))!;
    expect(await openBet(1).getAttribute('data-bet-type')).toBe('express');
    for (const i of [0, 1, 2])
      await until(`an offer on bet ${i}`, async () =>
        /^Cash out [0-9]+\.[0-9]{2,6} EUR$/.test(
          (await openBet(i).getByTestId('cash-out').textContent()) ?? '',
        ),
      );
    // the 5 EUR single's market is suspended: no offer, the reason in plain words
    const e = events[2]!;
    await admin(platform, 'PATCH', `/trading/sport-events/${e.id}/markets`, {
      markets: [{ id: e.markets[0]!.id, status: 1 }],
    });
    const button = openBet(2).getByTestId('cash-out');
    await until('the suspended bet to offer nothing', async () => await button.isDisabled());
    expect(await button.textContent()).toBe('Cash out');
    const reason = openBet(2).getByTestId('cash-out-reason');
    expect(await reason.getAttribute('data-reason')).toBe('market_suspended');
    expect(await reason.textContent()).toBe('A market of this bet is suspended right now.');
    // the reason describes the disabled button for a screen reader
    expect(await button.getAttribute('aria-describedby')).toBe(await reason.getAttribute('id'));
    await openBet(0).getByTestId('cash-out-partial').click();
    await openBet(0).getByTestId('cash-out-slider').fill('40');
    await until('the partial offer', async () =>
      /^Cash out [0-9.]+ EUR$/.test(
        (await openBet(0).getByTestId('cash-out-part-button').textContent()) ?? '',
      ),
    );
    const shot = await page.locator('#betting').screenshot({ path: join(SHOTS, 'cash-out-open-bets.png') });
    if (process.env.DOC_SCREENSHOTS === '1') writeFileSync(DOC_SHOT, shot);
    // a confirmation closes with Escape, the focus back on the cash-out button
    await openBet(1).getByTestId('cash-out').click();
    await openBet(1).getByTestId('cash-out-confirm').waitFor();
    // Escape is heard inside the confirmation, which takes the focus once it has rendered
    await until('the focus on the confirm button', async () =>
      openBet(1)
        .getByTestId('cash-out-yes')
        .evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement),
    );
    await page.keyboard.press('Escape');
    await until('the focus back on the cash-out button', async () =>
      openBet(1)
        .getByTestId('cash-out')
        .evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement),
    );
    expect(await openBet(1).getByTestId('cash-out-confirm').count()).toBe(0);
  });

  it('cashes out part of the stake, then the rest; the wallet moves by exactly the quoted amounts', async () => {
    const bet = page.locator(`[data-testid=open-bet][data-bet-id="${singleId}"]`);
    expect(await bet.getByTestId('cash-out-part-amount').textContent()).toBe('4.00 of 10.00 EUR');
    const before = await balance(platform);
    // partial: keyboard only, from the partial button to the confirmation
    await bet.getByTestId('cash-out-part-button').focus();
    // the exact amount quoted (the button shows it in cents)
    const partQuoted = (await bet.getByTestId('cash-out-part-button').getAttribute('data-amount'))!;
    expect(await bet.getByTestId('cash-out-part-button').textContent()).toBe(
      `Cash out ${money(partQuoted)} EUR`,
    );
    await page.keyboard.press('Enter');
    const confirm = bet.getByTestId('cash-out-confirm-text');
    expect(await confirm.textContent()).toBe(`Cash out 4.00 EUR of your stake for ${money(partQuoted)} EUR?`);
    // the confirm button takes the focus (an effect after the confirmation renders, so waited for)
    await until('the focus on the confirm button', async () =>
      bet.getByTestId('cash-out-yes').evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement),
    );
    await page.keyboard.press('Enter');
    const result = bet.getByTestId('cash-out-result');
    await result.waitFor();
    expect(await result.getAttribute('data-result')).toBe('accepted');
    expect(await result.textContent()).toContain(
      `Cashed out: ${money(partQuoted)} EUR goes to your balance.`,
    );
    const afterPart = formatMoney(add(exact(before), exact(partQuoted)));
    await until('the wallet to credit the partial cash-out', async () =>
      same(await balance(platform), afterPart),
    );
    // the stake in play dropped; the bet is still open
    await until('6 EUR in play', async () => (await bet.getByTestId('in-play').textContent()) === '6.00 EUR');
    expect(await page.locator('[data-testid=open-bet]').count()).toBe(3);

    // full: what is left
    const full = bet.getByTestId('cash-out');
    await until('an offer on the 6 EUR left', async () =>
      /^Cash out [0-9.]+ EUR$/.test((await full.textContent()) ?? ''),
    );
    await full.click();
    const fullQuoted = (await confirm.getAttribute('data-amount'))!;
    expect(await confirm.textContent()).toBe(`Cash out 6.00 EUR of your stake for ${money(fullQuoted)} EUR?`);
    await page.locator('#betting').screenshot({ path: join(SHOTS, 'cash-out-confirm.png') });
    await bet.getByTestId('cash-out-yes').click();
    // the bet leaves the open list; the outcome stays at the top of it
    await until('the bet to leave the open list', async () => (await bet.count()) === 0);
    const top = page.locator('[data-testid=open-bets] > [data-testid=cash-out-result]');
    expect(await top.getAttribute('data-result')).toBe('accepted');
    expect(await top.textContent()).toContain(`Cashed out: ${money(fullQuoted)} EUR goes to your balance.`);
    const afterFull = formatMoney(add(exact(afterPart), exact(fullQuoted)));
    await until('the wallet to credit the full cash-out', async () =>
      same(await balance(platform), afterFull),
    );
    // the host page heard balance_changed and shows the new balance
    await until('the partner page to show the balance', async () =>
      same(((await page.getByTestId('balance').textContent()) ?? '').split(' ')[0]!, afterFull),
    );
    // and the bet is among the settled ones as cashed out, with what both orders paid
    const settled = page.locator(`[data-testid=history-bet][data-bet-id="${singleId}"][data-status="7"]`);
    await until('the cashed-out bet in the history', async () => (await settled.count()) === 1);
    const paid = (await settled.getByTestId('cashed-out-amount').getAttribute('data-amount'))!;
    expect(await settled.getByTestId('cashed-out-amount').textContent()).toBe(`${money(paid)} EUR`);
    expect(same(paid, formatMoney(add(exact(partQuoted), exact(fullQuoted))))).toBe(true);
    expect(await page.locator('[data-testid=open-bet]').count()).toBe(2);
    // the suspended bet still offers nothing
    const suspended = page.locator(`[data-testid=open-bet][data-bet-id="${suspendedId}"]`);
    expect(await suspended.getByTestId('cash-out').isDisabled()).toBe(true);
  });

  it('declines an order whose quote expired while the price fell, showing the reason and the new offer', async () => {
    const bet = page.locator('[data-testid=open-bet][data-bet-type=express]');
    const button = bet.getByTestId('cash-out');
    await until('an offer on the express', async () => !(await button.isDisabled()));
    const before = await balance(platform);
    await button.click();
    const confirm = bet.getByTestId('cash-out-confirm');
    const offered = (await bet.getByTestId('cash-out-confirm-text').getAttribute('data-amount'))!;
    const expiresAt = Date.parse((await confirm.getAttribute('data-expires-at'))!);
    // the draw of the first match drifts out: the express's first leg is worth less
    const e = events[0]!;
    const draw = Object.values(e.markets[0]!.odds)[1]!;
    await admin(platform, 'PATCH', `/trading/sport-events/${e.id}/markets`, {
      markets: [{ id: e.markets[0]!.id, odds: [{ id: draw.id, value: '15' }] }],
    });
    // Bookie prices the bet lower now (asked as the partner), and the quote confirmed has run out
    const betId = (await bet.getAttribute('data-bet-id'))!;
    const partner = new BookieClient({
      baseUrl: platform.bookieUrl,
      clientId: platform.clientId,
      clientSecret: platform.clientSecret,
    });
    const token = await partner.accessToken();
    await until('a lower offer and the quote expired', async () => {
      const res = await fetch(`${platform.bookieUrl}/bets/${betId}/cash-out-orders/calculate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const q = (await res.json()) as { refund_amount: string };
      return compare(exact(q.refund_amount), exact(offered)) < 0 && Date.now() > expiresAt;
    });
    await bet.getByTestId('cash-out-yes').click();
    const result = bet.getByTestId('cash-out-result');
    await result.waitFor();
    expect(await result.getAttribute('data-result')).toBe('declined');
    expect(await result.getAttribute('data-reason')).toBe('quote_expired');
    // the new, lower offer: in the message and on the button
    const said = result.getByTestId('cash-out-result-text');
    await until('the new offer', async () =>
      /New offer: [0-9.]+ EUR\.$/.test((await said.textContent()) ?? ''),
    );
    const text = (await said.textContent()) ?? '';
    expect(text).toMatch(/^Cash out declined: The offer has expired\. New offer: /);
    const newOffer = (await said.getAttribute('data-new-offer'))!;
    expect(text).toContain(`New offer: ${money(newOffer)} EUR.`);
    expect(compare(exact(newOffer), exact(offered))).toBe(-1);
    expect(await button.textContent()).toBe(`Cash out ${money(newOffer)} EUR`);
    await page.locator('#betting').screenshot({ path: join(SHOTS, 'cash-out-declined.png') });
    // nothing was paid
    expect(same(await balance(platform), before)).toBe(true);
  });

  it('says the reason in German too', async () => {
    await page.evaluate(() =>
      (
        window as unknown as { frameApi: { updateBettingOptions(o: object): Promise<void> } }
      ).frameApi.updateBettingOptions({ locale: 'de' }),
    );
    const suspended = page.locator(`[data-testid=open-bet][data-bet-id="${suspendedId}"]`);
    await until(
      'German',
      async () =>
        (await suspended.getByTestId('cash-out-reason').textContent()) ===
        'Ein Markt dieser Wette ist gerade gesperrt.',
    );
    expect(await suspended.getByTestId('cash-out').textContent()).toBe('Cashout');
    // on a phone the open bets come first, the buttons full width
    await page.setViewportSize({ width: 400, height: 900 });
    await page.screenshot({ path: join(SHOTS, 'cash-out-narrow-de.png') });
  });

  it('shows no cash-out button while the operator pays no cash-out, and shows it again once announced', async () => {
    const buttons = () => page.locator('[data-testid=open-bet] [data-testid=cash-out]').count();
    await until('a cash-out button', async () => (await buttons()) > 0);
    await admin(platform, 'PATCH', `/admin/white-labels/${platform.whiteLabelId}`, {
      optional_callbacks: { cash_out: false },
    });
    await until('no cash-out button', async () => (await buttons()) === 0);
    expect(await page.locator('[data-testid=open-bet]').count()).toBeGreaterThan(0);
    await admin(platform, 'PATCH', `/admin/white-labels/${platform.whiteLabelId}`, {
      optional_callbacks: { cash_out: true },
    });
    await until('the cash-out button again', async () => (await buttons()) > 0);
  });
});
