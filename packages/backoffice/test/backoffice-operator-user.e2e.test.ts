import { join } from 'node:path';
import type { TestPlatform } from '@bookie/server/testing/platform';
import { waitUntil } from '@bookie/server/testing/scripted-partner';
import { openDatabase } from '@bookie/storage';
import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backofficeHelpers, SHOTS, startBackofficeWorld } from './backoffice.testing.js';

/**
 * An operator user's work in the backoffice, in a real browser (Debian Chromium through playwright-core) against a
 * real `bookie start` process and the reference wallet: white labels, the live book with exposure, and settlement's
 * quarantine. Screenshots go to packages/backoffice/test-results/ (git-ignored).
 */
describe('the backoffice in a browser', () => {
  let p: TestPlatform;
  let browser: Browser;
  let eventId: string;
  let base: string;

  beforeAll(async () => {
    ({ p, browser, eventId, base } = await startBackofficeWorld());
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await p?.close();
  });

  const { admin, logIn, placeBet } = backofficeHelpers(() => ({ p, browser, eventId, base }));

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
