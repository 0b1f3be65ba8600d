import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compare, parseDecimal, rational, sub } from '@bookie/core';
import { ensureFrameBuilt } from '@bookie/frame/build';
import { BookieClient } from '@bookie/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplayPlatform, startReplayPlatform } from '../../cli/replay.js';
import {
  admin,
  launchChromium,
  type TradedFixture,
  tradeDemoFixtures,
  until,
  walletBalance,
} from '../../testing/browser.js';

/**
 * A partner moving from the vendor whose contract Bookie implements keeps that vendor's host page: the page below
 * makes the calls of the vendor's example page (its options object with `url: {gqlEndpoint, bettingPath, pagePath,
 * staticEndpoint}`, `rootElement` as the id of a container parsed after the script, then `registerCallbacks`,
 * `selectOddFormat('Decimal')`, `subscribe('redirect')`, `init()`, `updatePalette` with the vendor's keys), pointed at
 * Bookie. Served from an allowed origin, the player bets by clicking; served from an origin the white label does not
 * allow, the load is refused and the container says so. Screenshots go to /tmp.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PLAYER = 'vendor-page';

/** The vendor's host page, pointed at Bookie (`//host:port/graphql` as the vendor writes its endpoint). */
function vendorPage(bookieUrl: string, token: string): string {
  const bookie = new URL(bookieUrl);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Casino</title>
<style>body{margin:0;font-family:Georgia,serif;background:#eee}.header{padding:12px;background:#222;color:#fff}</style>
</head>
<body>
<div class="header">Casino (vendor host page)</div>
<script type="text/javascript" src="${bookie.origin}/frame/bootstrap.js?v=1"></script>
<script>
  bettingLoader.load(
    {
      token: ${JSON.stringify(token)},
      isAuthorized: false,
      url: {
        gqlEndpoint: '//${bookie.host}/graphql',
        bettingPath: '/',
        pagePath: '',
        staticEndpoint: '//${bookie.host}',
      },
      locale: 'en',
      currency: 'EUR',
      rootElement: 'betting__container',
      sportIds: ['football', 'tennis', 'esports_dota_2'],
      features: {
        'app.rank-personalized': true,
        'match.bet-booster': false,
        'main.HideNavigation': false,
      },
    },
    function (bettingAPI) {
      // the test records what the loader passed; the rest is the vendor's callback as it is
      window.loaderArgs = Array.prototype.map.call(arguments, function (a) {
        return a === null ? 'null' : a && a.code ? a.code + ': ' + a.message : typeof a;
      });

      bettingAPI.registerCallbacks({
        getBanners: function (locale) {
          return Promise.resolve([]);
        },
      });

      bettingAPI.selectOddFormat('Decimal');

      bettingAPI.subscribe('redirect', ({ destination, link }) => {
        switch (destination) {
          case 'login': {
            window.location.href = '#!/auth/signin?popup';
          }
          default: {
            break;
          }
        }
      });

      bettingAPI.init();
      bettingAPI.updatePalette({
        primaryColor: '#060c1f',
        primaryText: '#ffffff',
        primaryAccent: '#00bf9e',
        secondaryColor: '#141c33',
        secondaryText: '#a4a4a4',
      });
    }
  );
</script>
<div id="betting__container"></div>
</body>
</html>`;
}

/** A partner's web server on its own origin serving {@link vendorPage} with a fresh session token per visit. */
async function hostSite(page: () => Promise<string>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if ((req.url ?? '/').split('?')[0] !== '/') return res.writeHead(404).end();
    page().then(
      (html) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(html);
      },
      (err) => res.writeHead(502).end(String(err)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("the vendor's host page, unchanged, on Bookie", () => {
  let platform: ReplayPlatform;
  let partner: BookieClient;
  let browser: Browser;
  let allowed: { url: string; server: Server };
  let refused: { url: string; server: Server };
  let fixtures: TradedFixture[];
  const tokens: string[] = [];

  beforeAll(async () => {
    await ensureFrameBuilt();
    platform = await startReplayPlatform({ bookie: 'process', wallet: 'process', logLevel: 'warn' });
    fixtures = await tradeDemoFixtures(platform, 0, 2);
    const res = await fetch(`${platform.walletUrl}/players/${PLAYER}/deposits`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${platform.walletAdminToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ currency: 'EUR', amount: '1000', reference: 'vendor-page' }),
    });
    expect(res.ok).toBe(true);
    partner = new BookieClient({
      baseUrl: platform.bookieUrl,
      clientId: platform.clientId,
      clientSecret: platform.clientSecret,
    });
    const page = async () => {
      const { token } = await partner.createPlayerToken({
        locale: 'en',
        currency: 'EUR',
        player_id: PLAYER,
        params: { player: PLAYER, currency: 'EUR' },
      });
      tokens.push(token);
      return vendorPage(platform.bookieUrl, token);
    };
    allowed = await hostSite(page);
    refused = await hostSite(page);
    await admin(platform, 'PATCH', `/admin/white-labels/${platform.whiteLabelId}`, {
      allowed_origins: [allowed.url],
    });
    browser = await launchChromium(CHROMIUM);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    allowed?.server.closeAllConnections();
    allowed?.server.close();
    refused?.server.closeAllConnections();
    refused?.server.close();
    await platform?.stop();
  }, 60_000);

  async function open(url: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => {
      if (m.type() === 'error') console.error('[browser]', m.text());
    });
    await page.goto(url);
    return page;
  }

  it('loads with the decimal prices and the palette in the vendor keys; a click places a bet the wallet takes', async () => {
    const page = await open(allowed.url);
    await until('the event list', async () => (await page.locator('[data-testid=event]').count()) >= 2);
    expect(await page.evaluate(() => (window as unknown as { loaderArgs: string[] }).loaderArgs)).toEqual([
      'object',
    ]);
    // selectOddFormat('Decimal'): every price is a decimal, none is "—"
    const prices = await page.locator('[data-testid=odd-value]').allTextContents();
    expect(prices.length).toBeGreaterThan(3);
    for (const p of prices) expect(p).toMatch(/^\d+\.\d\d$/);
    expect(await page.getByTestId('odds-format').inputValue()).toBe('decimal');
    // updatePalette({primaryColor: '#060c1f', primaryAccent: '#00bf9e', …}) reached the frame
    await until(
      'the palette',
      async () =>
        (await page.getByTestId('frame').evaluate((el) => getComputedStyle(el).backgroundColor)) ===
        'rgb(6, 12, 31)',
    );
    const before = await walletBalance(platform, PLAYER);
    const odd = page.locator(`[data-event-id="${fixtures[0]!.id}"] [data-testid=odd]`).first();
    await odd.click();
    await page.getByTestId('stake').fill('10');
    await page.getByTestId('place').click();
    await page.locator('[data-testid=result] [data-result=accepted]').waitFor();
    await until(
      'the wallet to take the stake',
      async () => (await walletBalance(platform, PLAYER)) !== before,
    );
    const money = (v: string) => parseDecimal(v, { field: 'balance', maxDecimals: 6 });
    const taken = sub(money(before), money(await walletBalance(platform, PLAYER)));
    expect(compare(taken, rational(10n))).toBe(0);
    const bets = await fetch(`${platform.bookieUrl}/frame-api/bets`, {
      headers: { authorization: `Bearer ${tokens.at(-1)}` },
    });
    const page1 = (await bets.json()) as { items: { status: number; stake: string }[] };
    expect(page1.items.map((b) => [b.status, b.stake])).toEqual([[1, '10.000000']]);
    await page.screenshot({ path: '/tmp/vendor-host-allowed.png' });

    // the session ends and no new token comes: the vendor page's redirect handler sends the player to log in
    expect(await page.evaluate(() => location.hash)).toBe('');
    await partner.expirePlayerToken(tokens.at(-1)!);
    await until(
      'the login redirect',
      async () => (await page.evaluate(() => location.hash)) === '#!/auth/signin?popup',
    );
    await page.close();
  });

  it('on an origin the white label does not allow: load is refused and the page says so', async () => {
    expect(new URL(refused.url).origin).not.toBe(new URL(allowed.url).origin);
    const page = await open(refused.url);
    const message = page.getByTestId('origin-not-allowed');
    await message.waitFor();
    expect(await message.textContent()).toContain(`This site (${refused.url}) is not allowed`);
    expect(await page.locator('[data-testid=event]').count()).toBe(0);
    expect(await page.getByText('Connection lost').count()).toBe(0);
    // the vendor's callback got (null, error)
    expect(await page.evaluate(() => (window as unknown as { loaderArgs: string[] }).loaderArgs)).toEqual([
      'null',
      expect.stringMatching(/^origin_not_allowed: .*not in the white label's allowed_origins/),
    ]);
    await page.screenshot({ path: '/tmp/vendor-host-not-allowed.png' });
    // Bookie's own loader (D49) rejects the same way
    const rejected = await page.evaluate(
      (token) =>
        (window as unknown as { Bookie: { load(o: object): Promise<unknown> } }).Bookie.load({
          token,
          rootElement: 'betting__container',
        }).then(
          () => 'resolved',
          (err: { code?: string }) => err.code,
        ),
      tokens.at(-1)!,
    );
    expect(rejected).toBe('origin_not_allowed');
    await page.close();
  });
});
