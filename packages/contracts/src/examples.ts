/**
 * Example values of the HTTP bodies and answers, attached to their schemas as JSON Schema `examples` (the OpenAPI
 * document shows them as each operation's example request and answer). Each is typed by its schema's static type,
 * and a test checks each against its schema, so an example cannot drift from the contract.
 *
 * One story runs through them: white label "Acme" (EUR), player `player-42`, the sport event Arsenal – Chelsea with
 * a 1X2 market, a single bet of 10 EUR on "1" at 2.5.
 *
 * @packageDocumentation
 */
import type { Static, TSchema } from '@sinclair/typebox';
import * as bonuses from './bonuses.js';
import * as feed from './feed.js';
import * as frame from './frame.js';
import * as outbox from './outbox.js';
import * as sportEvent from './sport-event.js';
import * as tenancy from './tenancy.js';

/** Sets `examples` of `schema` to `values` (typed by the schema) and returns the first. */
function examples<T extends TSchema>(schema: T, ...values: Static<T>[]): Static<T> {
  (schema as TSchema).examples = values;
  return values[0] as Static<T>;
}

const WL_ID = '0b6f2c1e-6a4f-4a8e-9a51-3f1c2d4e5a60';
const EVENT_ID = '5d3c9a7e-1b2f-4c8d-9e0a-7f6b5c4d3e21';
const BET_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const AT = '2024-05-01T12:00:00.000Z';

// ---- white labels, OAuth, sessions ------------------------------------------------------------------------------

const limits = examples(tenancy.WhiteLabelLimits, {
  min_stake: '1.000000',
  max_stake: '500.000000',
  max_payout: null,
});

examples(tenancy.CreateWhiteLabelBody, {
  name: 'Acme',
  currencies: ['EUR'],
  callback_url: 'https://wallet.acme.example/bookie',
  allowlist: ['203.0.113.10', '198.51.100.0/24'],
  limits: { min_stake: '1', max_stake: '500' },
});
examples(tenancy.UpdateWhiteLabelBody, { limits: { max_stake: '100' }, bet_delay: 4 });

const credential = examples(tenancy.WhiteLabelCredentialView, {
  client_id: 'bkc_4f2a9c1d7e3b',
  created_at: AT,
  revoked_at: null,
});
const whiteLabel = examples(tenancy.WhiteLabelView, {
  id: WL_ID,
  name: 'Acme',
  mode: 'turnkey',
  currencies: ['EUR'],
  callback_url: 'https://wallet.acme.example/bookie',
  limits,
  bet_interval: 0,
  bet_delay: 0,
  allowlist: ['203.0.113.10', '198.51.100.0/24'],
  allowed_origins: ['https://www.acme.example'],
  signing: {
    enabled: true,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    previous_secret_valid_until: null,
  },
  insurance_cancel_callbacks: true,
  optional_callbacks: {
    heartbeat: { announced: true, learnt: 'supported', learnt_at: AT, last_status: 204, supported: true },
    banners: { announced: null, learnt: 'unknown', learnt_at: null, last_status: null, supported: true },
    cash_out: { announced: null, learnt: 'unsupported', learnt_at: AT, last_status: 404, supported: false },
    insurance: { announced: true, learnt: 'unknown', learnt_at: null, last_status: null, supported: true },
    insurance_cancel: {
      announced: true,
      learnt: 'unknown',
      learnt_at: null,
      last_status: null,
      supported: true,
    },
  },
  credentials: [credential],
  created_at: AT,
  updated_at: AT,
});
examples(tenancy.CreatedWhiteLabel, {
  id: WL_ID,
  client_id: credential.client_id,
  client_secret: 'bksec_8Qm3xV0pL7nR2sT9wY4z',
  white_label: whiteLabel,
});
examples(tenancy.WhiteLabelList, { white_labels: [whiteLabel] });
examples(tenancy.NewWhiteLabelCredential, {
  white_label_id: WL_ID,
  client_id: 'bkc_9d1e3f5a7b2c',
  client_secret: 'bksec_2Lk8vB5nQ1wE6rT3yU0i',
});
examples(tenancy.RotatedSigningSecret, {
  signing_secret: 'whsec_3nX8bQ2mV7kL1pR9sT4wY6zA0cE5gH8j',
  previous_secret_valid_until: '2024-05-02T12:00:00.000Z',
});
examples(tenancy.OAuthTokenResponse, {
  access_token: 'bkat_Zm9vYmFyYmF6cXV4',
  token_type: 'Bearer',
  expires_in: 3600,
});
examples(tenancy.OAuthErrorBody, {
  error: 'invalid_client',
  error_description: 'unknown client or wrong secret',
});
examples(tenancy.CreateSessionBody, {
  locale: 'en',
  currency: 'EUR',
  player_id: 'player-42',
  params: { currency: 'EUR', player_id: 'player-42' },
});
examples(tenancy.CreateSessionResponse, { token: 'bkst_c2Vzc2lvbi10b2tlbg' });
examples(tenancy.ExpireSessionBody, { token: 'bkst_c2Vzc2lvbi10b2tlbg' });
{
  const { signing: _s, credentials: _c, ...partnerView } = whiteLabel;
  examples(tenancy.PartnerWhiteLabelView, partnerView);
}

// ---- trading and the feed ---------------------------------------------------------------------------------------

const competitor = (id: string, name: string, side: 1 | 2) => ({
  id,
  meta: {},
  name,
  type: 2,
  scores: { total: { id: 'total', type: 1, number: 0, points: '0' } },
  home_away: side,
  master_id: `m-${id}`,
  template_position: side,
});
const tournament = { id: 't1', name: 'Premier League', master_id: 'm-t1', country_code: 'GB' };
const market1x2 = {
  id: '1',
  type_id: 1,
  template: '1x2',
  specifiers: {},
  odds: [
    { id: '1', value: '2.5', template: '{$competitor1}' },
    { id: '2', value: '3.4', template: 'draw' },
    { id: '3', value: '2.8', template: '{$competitor2}' },
  ],
};
examples(feed.MarketInput, market1x2);
examples(feed.CreateSportEventBody, {
  id: EVENT_ID,
  fixture: {
    type: 1,
    status: 0,
    sport_id: 'football',
    template: '{$competitor1} vs {$competitor2}',
    start_time: '2030-06-01T18:00:00Z',
    tournament,
    competitors: { c1: competitor('c1', 'Arsenal', 1), c2: competitor('c2', 'Chelsea', 2) },
    live_coverage: true,
  },
  markets: [market1x2],
});
examples(feed.TradingCommandResponse, { id: EVENT_ID, version: '17' });
examples(feed.UpdateFixtureBody, { status: 1 });
examples(feed.PutMarketsBody, { markets: [market1x2] });
examples(feed.PatchMarketsBody, {
  markets: [
    {
      id: '1',
      status: 1,
      odds: [
        { id: '1', status: 1 },
        { id: '2', status: 2 },
        { id: '3', status: 2 },
      ],
    },
  ],
});
examples(feed.BetStopBody, { bet_stop: true });
examples(feed.UpdateScoresBody, {
  competitors: {
    c1: { total: { id: 'total', type: 1, number: 0, points: '2' } },
    c2: { total: { id: 'total', type: 1, number: 0, points: '1' } },
  },
});
examples(feed.ChangesBody, { changes: { 'markets/1/odds/1/value': '2.450000000000' } });
examples(feed.BetRollbackBody, {
  market_ids: ['1'],
  reason: 'technical_error_in_coefficient',
  dt_start: '2030-06-01T18:10:00Z',
  dt_end: '2030-06-01T18:12:00Z',
});
examples(feed.RefetchResponse, { version: '18' });

const odd = (id: string, value: string, template: string) => ({
  id,
  value,
  status: 0,
  template,
  is_active: true,
});
const sportEventExample = examples(sportEvent.SportEvent, {
  id: EVENT_ID,
  meta: {},
  fixture: {
    id: EVENT_ID,
    meta: {},
    type: 1,
    status: 0,
    streams: {},
    sport_id: 'football',
    template: '{$competitor1} vs {$competitor2}',
    start_time: '2030-06-01T18:00:00Z',
    tournament,
    updated_at: '2024-05-01T12:00:00Z',
    competitors: { c1: competitor('c1', 'Arsenal', 1), c2: competitor('c2', 'Chelsea', 2) },
    live_coverage: true,
  },
  markets: {
    '1': {
      id: '1',
      status: 0,
      type_id: 1,
      template: '1x2',
      specifiers: {},
      odds: {
        '1': odd('1', '2.500000000000', '{$competitor1}'),
        '2': odd('2', '3.400000000000', 'draw'),
        '3': odd('3', '2.800000000000', '{$competitor2}'),
      },
    },
  },
  bet_stop: false,
  updated_at: '2024-05-01T12:00:00Z',
});
examples(sportEvent.SportEventAtVersion, { version: '17', sport_event: sportEventExample });
examples(sportEvent.SportEventList, { items: [sportEventExample] });

// ---- bets (frame API) and the callback outbox ---------------------------------------------------------------------

const selection = { sport_event_id: EVENT_ID, market_id: '1', odd_id: '1' };
examples(frame.PlaceBetRequest, {
  bet_type: 'single',
  selections: [{ ...selection, odds: '2.5' }],
  stake: '10',
  currency: 'EUR',
  odds_strategy: 1,
  client_key: 'slip-7f3a',
});
const bet = examples(frame.BetView, {
  id: BET_ID,
  status: 1,
  state: 'accepted',
  bet_type: 'single',
  system_sizes: [1],
  stake: '10.000000',
  currency: 'EUR',
  total_odds: '2.500000',
  selections: [{ ...selection, requested_odds: '2.500000', odds: '2.500000', status: 0 }],
  restrictions: [],
  freebet_id: null,
  insurance_id: null,
  boost_id: null,
  created_at: AT,
  decided_at: '2024-05-01T12:00:00.210Z',
  payout: null,
  settle_amount: null,
  settle_type: null,
  cashed_out_stake: '0.000000',
  cashed_out_refund: '0.000000',
});
examples(frame.BetPage, { items: [bet], next: null });

const delivery = examples(outbox.CallbackDeliveryView, {
  id: '1042',
  request_id: '3f1e2d4c-5b6a-4978-8695-a4b3c2d1e0f9',
  white_label_id: WL_ID,
  bet_id: BET_ID,
  path: '/bet/accept',
  mode: 'async',
  status: 'pending',
  attempts: 2,
  next_attempt_at: '2024-05-01T12:00:36.000Z',
  last_status: 503,
  last_error: 'HTTP 503',
  last_attempt_at: '2024-05-01T12:00:06.000Z',
  delivered_at: null,
  created_at: AT,
});
examples(outbox.CallbackDeliveryList, { items: [delivery] });

// ---- bonuses ------------------------------------------------------------------------------------------------------

const conditions: bonuses.BonusConditions = [
  {
    type: 'bet_details',
    data: { bet_details: [{ type: 'single', data: { odds_coefficient: { min: '1.5' } } }] },
  },
];
const createFreebet = examples(bonuses.CreateFreebetBody, {
  player_id: 'player-42',
  currency_code: 'EUR',
  amount: '5',
  expires_at: '2024-06-01T00:00:00Z',
  conditions,
  idempotence_id: 'promo-may-player-42',
});
examples(bonuses.BulkCreateFreebetsBody, { items: [createFreebet] });
examples(bonuses.UpdateFreebetBody, { id: 'fb_01HXYZ', amount: '7.5' });
examples(bonuses.CancelBonusBody, { id: 'fb_01HXYZ' });
const freebet = examples(bonuses.FreebetView, {
  id: 'fb_01HXYZ',
  player_id: 'player-42',
  currency_code: 'EUR',
  amount: '5.000000',
  expires_at: '2024-06-01T00:00:00.000Z',
  conditions,
  foreign_params: {},
  status: 'available',
  used_on_bet_id: null,
  used_at: null,
  idempotence_id: 'promo-may-player-42',
  created_at: AT,
  updated_at: AT,
});
examples(bonuses.BulkCreateFreebetsResponse, { items: [{ index: 0, status: 201, freebet }] });
examples(bonuses.FreebetPage, { items: [freebet], next_cursor: null });
examples(bonuses.CreateInsuranceBody, {
  player_id: 'player-42',
  currency_code: 'EUR',
  type: 'percent',
  percent: '10',
  max_amount: '20',
  strategies: { max_odds_count_lose: 1 },
  idempotence_id: 'insure-player-42',
});
examples(bonuses.UpdateInsuranceBody, { id: 'in_01HXYZ', percent: '15' });
const insurance = examples(bonuses.InsuranceView, {
  id: 'in_01HXYZ',
  player_id: 'player-42',
  currency_code: 'EUR',
  expires_at: null,
  conditions: [],
  stake_amount_range: null,
  type: 'percent',
  amount: null,
  percent: '10.000000',
  max_amount: '20.000000',
  strategies: { type: 'percent', max_odds_count_lose: 1 },
  foreign_params: {},
  status: 'available',
  bet_id: null,
  refund_amount: null,
  applied_at: null,
  resolved_at: null,
  idempotence_id: 'insure-player-42',
  created_at: AT,
  updated_at: AT,
});
examples(bonuses.InsurancePage, { items: [insurance], next_cursor: null });
examples(bonuses.CreateBetBoostBody, {
  multiplier: '1.1',
  quantity: 100,
  name: 'Weekend boost',
  expires_at: '2024-06-01T00:00:00Z',
  idempotence_id: 'boost-weekend',
});
const boost = examples(bonuses.BetBoostView, {
  id: 'bb_01HXYZ',
  player_id: null,
  name: 'Weekend boost',
  multiplier: '1.100000',
  conditions: [],
  quantity: 100,
  remaining_quantity: 100,
  expires_at: '2024-06-01T00:00:00.000Z',
  foreign_params: {},
  status: 'active',
  idempotence_id: 'boost-weekend',
  created_at: AT,
  updated_at: AT,
});
examples(bonuses.BetBoostPage, { items: [boost], next_cursor: null });

/** The schemas given examples here, by name (for the test that checks each example against its schema). */
export const EXAMPLED_SCHEMAS: Record<string, TSchema> = {
  ...Object.fromEntries(
    Object.entries({ ...tenancy, ...feed, ...sportEvent, ...frame, ...outbox, ...bonuses }).filter(
      ([, v]) => typeof v === 'object' && v !== null && Array.isArray((v as TSchema).examples),
    ),
  ),
} as Record<string, TSchema>;
