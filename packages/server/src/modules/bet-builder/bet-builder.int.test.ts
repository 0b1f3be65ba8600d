import type { MarketInput } from '@bookie/contracts';
import { type BuilderEventInput, builderModel, formatOdds, parseDecimal, priceBuilder } from '@bookie/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betBuilderDeps } from '../../app/module-deps.js';
import { createTestApp, type TestApp } from '../../app/test-app.js';
import { startBackground } from '../../app/wiring.js';
import { createTestDatabase } from '../../testing/database.js';
import { createSession, partnerWithToken, TEST_ADMIN_TOKEN } from '../../testing/partner.js';
import { readQuote, signQuote } from '../cash-out/quotes.js';
import { createSportEvent } from '../trading/create-sport-event.js';
import { sampleEvent } from '../trading/fixtures.js';
import { patchMarkets } from '../trading/patch-markets.js';
import { readBuilderQuote, verifyBuilderQuote } from './builder-quote.js';

const market = (
  id: string,
  type_id: number,
  specifiers: Record<string, string>,
  odds: Record<string, string>,
) =>
  ({
    id,
    type_id,
    template: `market ${type_id}`,
    specifiers,
    odds: Object.entries(odds).map(([o, value]) => ({ id: o, value, template: o })),
  }) satisfies MarketInput;

/** The football markets of core's builder fixture the builder prices: 1X2, total 2.5, both teams score, correct score. */
const MARKETS = [
  market('1', 1, {}, { '1': '2.10', '2': '3.40', '3': '3.60' }),
  market('18:total=2.5', 18, { total: '2.5' }, { '12': '1.95', '13': '1.90' }),
  market('29', 29, {}, { '74': '1.80', '76': '2.00' }),
  market('45', 45, {}, { '0:0': '11.00', '1:0': '8.00', '1:1': '6.50', '2:1': '9.00' }),
];
const HOME_AND_OVER = [
  { market_id: '1', odd_id: '1' },
  { market_id: '18:total=2.5', specifiers: { total: '2.5' }, odd_id: '12' },
];

describe(`the bet builder API: selections, calculate, quotes, settings (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  let t: TestApp;
  let eventId: string;
  let partner: Awaited<ReturnType<typeof partnerWithToken>>;
  let other: Awaited<ReturnType<typeof partnerWithToken>>;
  let session: string;

  const post = (url: string, body: unknown, authorization: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const partnerPost = (url: string, body: unknown) => post(url, body, partner.headers.authorization);
  const admin = (method: 'GET' | 'PUT', body?: unknown) =>
    t.app.inject({
      method,
      url: '/admin/risk/bet-builder-settings',
      headers: {
        authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  const eventInput = (): BuilderEventInput => {
    const e = t.deps.feed.catalog.getEvent(eventId)!;
    return { id: e.id, sport_id: e.fixture.sport_id, markets: e.markets };
  };
  const expectedOdds = (margin: string) => {
    const event = eventInput();
    const model = builderModel(event);
    if (!model.ok) throw new Error(model.refusal.message);
    const q = priceBuilder(event, model.value, HOME_AND_OVER, {
      margin: parseDecimal(margin, { field: 'margin' }),
    });
    if (!q.ok) throw new Error(q.refusal.message);
    return formatOdds(q.value.odds);
  };

  beforeAll(async () => {
    // settings read on every call, so a change shows at once
    t = await createTestApp(await createTestDatabase(), { env: { RISK_SETTINGS_CACHE_MS: '0' } });
    await startBackground(t.deps);
    const created = await createSportEvent(t.deps, { ...sampleEvent(), markets: MARKETS });
    await t.deps.feed.catalog.waitFor(created.version);
    eventId = created.id;
    partner = await partnerWithToken({ database: t.deps.database }, t.app);
    other = await partnerWithToken({ database: t.deps.database }, t.app);
    session = await createSession(t.app, partner.token, { player_id: 'p-builder', params: {} });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it("prices 1X2 home + over 2.5 at core's priceBuilder odds with the default margin, and quotes them", async () => {
    const r = await partnerPost('/bet-builder/calculate', { sport_event_id: eventId, legs: HOME_AND_OVER });
    expect(r.statusCode).toBe(200);
    const a = r.json();
    expect(a.available).toBe(true);
    expect(a.odds).toBe(expectedOdds('0.1'));
    expect(a.legs.map((l: { label: string }) => l.label)).toEqual(['1X2: home', 'total 2.5: over']);
    expect(a.selections.length).toBeGreaterThan(0);
    expect(a.selections.some((s: { market_id: string }) => s.market_id === '1')).toBe(false);
    expect(typeof a.quote).toBe('string');
    const key = await betBuilderDeps(t.deps).quoteKey();
    expect(readBuilderQuote(key, a.quote)).toMatchObject({
      whiteLabelId: partner.whiteLabelId,
      sportEventId: eventId,
      odds: a.odds,
      expiresAt: Date.parse(a.expires_at),
    });
  });

  it('refuses a contradictory pair, naming the legs', async () => {
    const r = await partnerPost('/bet-builder/calculate', {
      sport_event_id: eventId,
      legs: [
        { market_id: '1', odd_id: '2' },
        { market_id: '45', odd_id: '1:0' },
      ],
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ available: false, refusal: { reason: 'contradictory' }, legs: [] });
    expect(r.json().quote).toBeUndefined();
  });

  it('lists the selections a builder can take, and what can join a leg', async () => {
    const none = await partnerPost('/bet-builder/selections', { sport_event_id: eventId });
    expect(none.statusCode).toBe(200);
    const all = none.json().selections as Array<{ market_id: string; odd_id: string }>;
    expect(all.map((s) => `${s.market_id}/${s.odd_id}`)).toContain('1/1');
    const withDraw = await partnerPost('/bet-builder/selections', {
      sport_event_id: eventId,
      legs: [{ market_id: '1', odd_id: '2' }],
    });
    const joinable = (withDraw.json().selections as typeof all).map((s) => `${s.market_id}/${s.odd_id}`);
    expect(joinable).toContain('45/1:1');
    expect(joinable).not.toContain('45/1:0');
    expect(joinable.some((s) => s.startsWith('1/'))).toBe(false);
    const unknown = await partnerPost('/bet-builder/selections', { sport_event_id: 'no-such-event' });
    expect(unknown.statusCode).toBe(404);
  });

  it('verifies its own quote; a tampered, expired or mismatched one does not', async () => {
    const a = (
      await partnerPost('/bet-builder/calculate', { sport_event_id: eventId, legs: HOME_AND_OVER })
    ).json();
    const key = await betBuilderDeps(t.deps).quoteKey();
    const claim = {
      whiteLabelId: partner.whiteLabelId,
      sportEventId: eventId,
      legs: HOME_AND_OVER,
      odds: a.odds,
    };
    const now = Date.parse(a.expires_at) - 1;
    expect(verifyBuilderQuote(key, a.quote, claim, now)).toMatchObject({ ok: true });
    // tampered: the odds raised inside the signed payload
    const [payload, sig] = (a.quote as string).split('.');
    const terms = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    terms[4] = '99.000000';
    const tampered = `${Buffer.from(JSON.stringify(terms)).toString('base64url')}.${sig}`;
    expect(verifyBuilderQuote(key, tampered, { ...claim, odds: '99.000000' }, now)).toEqual({
      ok: false,
      problem: 'invalid',
    });
    expect(verifyBuilderQuote('another key', a.quote, claim, now)).toEqual({ ok: false, problem: 'invalid' });
    expect(verifyBuilderQuote(key, a.quote, claim, Date.parse(a.expires_at))).toEqual({
      ok: false,
      problem: 'expired',
    });
    expect(verifyBuilderQuote(key, a.quote, { ...claim, whiteLabelId: other.whiteLabelId }, now)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
    expect(verifyBuilderQuote(key, a.quote, { ...claim, legs: [...HOME_AND_OVER].reverse() }, now)).toEqual({
      ok: false,
      problem: 'mismatch',
    });
    // a cash-out quote signed with the same key is not a builder quote, nor the other way round
    const cashOut = signQuote(key, { betId: eventId, amount: '1', refundAmount: '1', expiresAt: now });
    expect(readBuilderQuote(key, cashOut)).toBeUndefined();
    expect(readQuote(key, a.quote)).toBeUndefined();
  });

  it('the frame serves the same calculator to the session player', async () => {
    const r = await post(
      '/frame-api/bet-builder/calculate',
      { sport_event_id: eventId, legs: HOME_AND_OVER },
      `Bearer ${session}`,
    );
    expect(r.statusCode).toBe(200);
    expect(r.json().odds).toBe(expectedOdds('0.1'));
    const s = await post(
      '/frame-api/bet-builder/selections',
      { sport_event_id: eventId },
      `Bearer ${session}`,
    );
    expect(s.statusCode).toBe(200);
    expect(s.json().available).toBe(true);
    const noSession = await post(
      '/frame-api/bet-builder/calculate',
      { sport_event_id: eventId, legs: HOME_AND_OVER },
      'Bearer nope',
    );
    expect(noSession.statusCode).toBe(401);
  });

  it('fits the model once per price version', async () => {
    const models = betBuilderDeps(t.deps).models;
    await partnerPost('/bet-builder/calculate', { sport_event_id: eventId, legs: HOME_AND_OVER });
    const before = models.fits;
    await partnerPost('/bet-builder/calculate', { sport_event_id: eventId, legs: HOME_AND_OVER });
    await partnerPost('/bet-builder/selections', { sport_event_id: eventId });
    expect(models.fits).toBe(before);
    const oldOdds = expectedOdds('0.1');
    const moved = await patchMarkets(t.deps, {
      id: eventId,
      body: {
        markets: [
          {
            id: '18:total=2.5',
            odds: [
              { id: '12', value: '1.70' },
              { id: '13', value: '2.20' },
            ],
          },
        ],
      },
    });
    await t.deps.feed.catalog.waitFor(moved.version);
    const r = await partnerPost('/bet-builder/calculate', { sport_event_id: eventId, legs: HOME_AND_OVER });
    expect(models.fits).toBe(before + 1);
    expect(r.json().odds).toBe(expectedOdds('0.1'));
    expect(r.json().odds).not.toBe(oldOdds);
  });

  it("validates the operator's margin and most legs, and prices with the white label's own", async () => {
    for (const [body, field] of [
      [{ white_label_id: partner.whiteLabelId, margin: '1' }, 'margin'],
      [{ white_label_id: partner.whiteLabelId, margin: '-0.1' }, 'margin'],
      [{ white_label_id: partner.whiteLabelId, margin: '0.1234567' }, 'margin'],
      [{ white_label_id: partner.whiteLabelId, max_legs: 0 }, 'max_legs'],
      [{ white_label_id: partner.whiteLabelId, max_legs: 11 }, 'max_legs'],
      [{ white_label_id: partner.whiteLabelId }, 'margin'],
    ] as const) {
      const r = await admin('PUT', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().error.details.field).toBe(field);
    }
    expect((await admin('PUT', { white_label_id: 'no-such-wl', margin: '0.05' })).statusCode).toBe(404);
    const set = await admin('PUT', { white_label_id: partner.whiteLabelId, margin: '0.05', max_legs: 2 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({
      default_margin: '0.100000',
      default_max_legs: 10,
      settings: [{ white_label_id: partner.whiteLabelId, margin: '0.050000', max_legs: 2 }],
    });
    expect((await admin('GET')).json()).toEqual(set.json());
    const priced = await partnerPost('/bet-builder/calculate', {
      sport_event_id: eventId,
      legs: HOME_AND_OVER,
    });
    expect(priced.json().odds).toBe(expectedOdds('0.05'));
    expect(priced.json().selections).toEqual([]);
    const three = await partnerPost('/bet-builder/calculate', {
      sport_event_id: eventId,
      legs: [...HOME_AND_OVER, { market_id: '29', odd_id: '74' }],
    });
    expect(three.json()).toMatchObject({ available: false, refusal: { reason: 'too_many_legs' } });
    // the other white label keeps the default
    const theirs = await post(
      '/bet-builder/calculate',
      { sport_event_id: eventId, legs: HOME_AND_OVER },
      other.headers.authorization,
    );
    expect(theirs.json().odds).toBe(expectedOdds('0.1'));
    const cleared = await admin('PUT', {
      white_label_id: partner.whiteLabelId,
      margin: null,
      max_legs: null,
    });
    expect(cleared.json().settings).toEqual([]);
  });
});
