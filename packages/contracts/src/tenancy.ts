/**
 * Wire formats of tenancy: white labels and their credentials (admin API), the OAuth 2.0 token
 * endpoint (the partner tokens rule) and player session tokens (the player sessions rule). See docs/adr/0005-tenancy.md.
 *
 * @packageDocumentation
 */
import { type Static, Type } from '@sinclair/typebox';
import { MONEY_PATTERN } from './decimal.js';
import { OptionalCallbacksInput, OptionalCallbacksView } from './optional-callbacks.js';

/** How a white label works with the platform: turnkey (frame + callbacks), MTS or advisory (the MTS and advisory contract). */
export const WhiteLabelMode = Type.Union(
  [Type.Literal('turnkey'), Type.Literal('mts'), Type.Literal('advisory')],
  { description: 'turnkey | mts | advisory' },
);
export type WhiteLabelMode = Static<typeof WhiteLabelMode>;

/** A currency code: 3 to 10 upper-case letters or digits, starting with a letter (e.g. `EUR`, `USDT`). */
export const WhiteLabelCurrency = Type.String({ pattern: '^[A-Z][A-Z0-9]{2,9}$', description: 'e.g. EUR' });

/** A money amount (the decimal strings rule): a non-negative decimal string with at most 6 decimals, e.g. `"10.000000"`. */
export const WhiteLabelLimitAmount = Type.String({
  pattern: MONEY_PATTERN,
  description: 'decimal string, at most 6 decimals',
});

/** Stake and payout limits of a white label; `null` means no limit. Amounts are written with 6 decimals. */
export const WhiteLabelLimits = Type.Object(
  {
    min_stake: Type.Union([WhiteLabelLimitAmount, Type.Null()]),
    max_stake: Type.Union([WhiteLabelLimitAmount, Type.Null()]),
    max_payout: Type.Union([WhiteLabelLimitAmount, Type.Null()]),
  },
  { additionalProperties: false },
);
export type WhiteLabelLimits = Static<typeof WhiteLabelLimits>;

/** Limits in a write: each one optional; `null` removes a limit. */
export const WhiteLabelLimitsInput = Type.Partial(WhiteLabelLimits, { additionalProperties: false });

/** An allowlist entry: an IPv4 or IPv6 address, or a CIDR block (`10.0.0.0/8`, `2001:db8::/32`). */
export const WhiteLabelAllowlistEntry = Type.String({
  minLength: 2,
  maxLength: 64,
  description: 'IPv4, IPv6 or CIDR',
});

/** A web origin allowed to embed the betting frame: scheme, host and port, e.g. `https://casino.example`. */
export const WhiteLabelAllowedOrigin = Type.String({
  minLength: 8,
  maxLength: 200,
  description: 'http(s) origin, no path',
  examples: ['https://casino.example', 'http://127.0.0.1:5173'],
});

/** Body of `POST /admin/white-labels`. */
export const CreateWhiteLabelBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    mode: Type.Optional(WhiteLabelMode),
    currencies: Type.Array(WhiteLabelCurrency, { minItems: 1, maxItems: 100, uniqueItems: true }),
    callback_url: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 2000 }), Type.Null()], {
        description: 'base URL of the partner callback server (http or https)',
      }),
    ),
    limits: Type.Optional(WhiteLabelLimitsInput),
    bet_interval: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 86_400, description: 'seconds a player waits between bets' }),
    ),
    bet_delay: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 600, description: 'seconds a live bet waits before acceptance' }),
    ),
    allowlist: Type.Optional(Type.Array(WhiteLabelAllowlistEntry, { maxItems: 1000 })),
    allowed_origins: Type.Optional(
      Type.Array(WhiteLabelAllowedOrigin, {
        maxItems: 100,
        description: 'web origins whose pages may embed the betting frame and call the frame API (CORS)',
      }),
    ),
    signing_enabled: Type.Optional(
      Type.Boolean({ description: 'sign callbacks (Standard Webhooks); default true' }),
    ),
    insurance_cancel_callbacks: Type.Optional(
      Type.Boolean({
        description:
          'send /bet/insurances/cancel when an insured bet whose insurance was paid is unsettled (an optional callback); default true: false opts out, and a refund a corrected result no longer earns then stays with the player as an open item',
      }),
    ),
    optional_callbacks: Type.Optional(OptionalCallbacksInput),
  },
  { additionalProperties: false },
);
export type CreateWhiteLabelBody = Static<typeof CreateWhiteLabelBody>;

/** Body of `PATCH /admin/white-labels/{id}`: any field of the create body. */
export const UpdateWhiteLabelBody = Type.Partial(CreateWhiteLabelBody, { additionalProperties: false });
export type UpdateWhiteLabelBody = Static<typeof UpdateWhiteLabelBody>;

/** A client credential as listed (never with its secret). Times are ISO 8601. */
export const WhiteLabelCredentialView = Type.Object({
  client_id: Type.String(),
  created_at: Type.String(),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
});
export type WhiteLabelCredentialView = Static<typeof WhiteLabelCredentialView>;

/** Callback signing settings (the callback signing rule). `secret` appears in the admin view only, never in list or partner views. */
export const WhiteLabelSigningView = Type.Object({
  enabled: Type.Boolean(),
  secret: Type.Optional(Type.String({ description: 'Standard Webhooks secret whsec_…' })),
  /** Until when callbacks are also signed with the previous secret (after a rotation); ISO 8601 or null. */
  previous_secret_valid_until: Type.Union([Type.String(), Type.Null()]),
});

/** A white label as the admin API shows it. */
export const WhiteLabelView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  mode: WhiteLabelMode,
  currencies: Type.Array(Type.String()),
  callback_url: Type.Union([Type.String(), Type.Null()]),
  limits: WhiteLabelLimits,
  bet_interval: Type.Integer({ description: 'seconds' }),
  bet_delay: Type.Integer({ description: 'seconds' }),
  allowlist: Type.Array(Type.String()),
  allowed_origins: Type.Array(Type.String(), { description: 'origins allowed to call the frame API (CORS)' }),
  signing: WhiteLabelSigningView,
  insurance_cancel_callbacks: Type.Boolean({
    description:
      'sends /bet/insurances/cancel (an optional callback; the same as optional_callbacks.insurance_cancel.supported)',
  }),
  optional_callbacks: OptionalCallbacksView,
  credentials: Type.Optional(Type.Array(WhiteLabelCredentialView)),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type WhiteLabelView = Static<typeof WhiteLabelView>;

/** A new client credential; `client_secret` is shown once and stored only hashed. */
export const NewWhiteLabelCredential = Type.Object({
  white_label_id: Type.String(),
  client_id: Type.String(),
  client_secret: Type.String(),
});
export type NewWhiteLabelCredential = Static<typeof NewWhiteLabelCredential>;

/** Answer of `POST /admin/white-labels` and of `bookie wl create`. */
export const CreatedWhiteLabel = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  client_secret: Type.String({ description: 'shown once' }),
  white_label: WhiteLabelView,
});
export type CreatedWhiteLabel = Static<typeof CreatedWhiteLabel>;

/** Answer of `GET /admin/white-labels`. */
export const WhiteLabelList = Type.Object({ white_labels: Type.Array(WhiteLabelView) });

/** Answer of a signing-secret rotation. */
export const RotatedSigningSecret = Type.Object({
  signing_secret: Type.String(),
  previous_secret_valid_until: Type.Union([Type.String(), Type.Null()]),
});
export type RotatedSigningSecret = Static<typeof RotatedSigningSecret>;

/**
 * Body of `POST /admin/white-labels/{id}/signing-secret/rotate`: how long the previous secret still signs callbacks,
 * in seconds (0–30 days; default `SIGNING_SECRET_GRACE_S`); `null` or no body takes the default.
 */
export const RotateSigningSecretBody = Type.Union(
  [
    Type.Object(
      { grace_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_592_000 })) },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { title: 'RotateSigningSecretBody', examples: [{ grace_seconds: 86400 }] },
);
/** See {@link RotateSigningSecretBody}. */
export type RotateSigningSecretBody = Static<typeof RotateSigningSecretBody>;

/** Path parameters of the admin white-label routes. */
export const WhiteLabelIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
export const WhiteLabelCredentialParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  client_id: Type.String({ minLength: 1, maxLength: 100 }),
});

/**
 * Body of `POST /admin/white-labels/{id}/certificates`: a client certificate (PEM) for the feed's mutual TLS. With it
 * (signed by the server's client CA) the partner reads the feed (`/all`, `/log`, `/refetch`) without a bearer token.
 */
export const AddClientCertificateBody = Type.Object(
  { pem: Type.String({ minLength: 1, maxLength: 65_536, description: 'the certificate, PEM' }) },
  {
    additionalProperties: false,
    title: 'AddClientCertificateBody',
    examples: [{ pem: '-----BEGIN CERTIFICATE-----\nMIIC…\n-----END CERTIFICATE-----\n' }],
  },
);
export type AddClientCertificateBody = Static<typeof AddClientCertificateBody>;

/** A client certificate bound to a white label. `fingerprint`: SHA-256 of the DER, lowercase hex; times ISO 8601. */
export const ClientCertificateView = Type.Object(
  {
    white_label_id: Type.String(),
    fingerprint: Type.String(),
    subject: Type.String(),
    created_at: Type.String(),
    revoked_at: Type.Union([Type.String(), Type.Null()]),
  },
  {
    title: 'ClientCertificateView',
    examples: [
      {
        white_label_id: 'wl_3f2a',
        fingerprint: '5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592',
        subject: 'CN=partner-feed',
        created_at: '2026-05-01T10:00:00.000Z',
        revoked_at: null,
      },
    ],
  },
);
export type ClientCertificateView = Static<typeof ClientCertificateView>;

/** Path parameters of `DELETE /admin/white-labels/{id}/certificates/{fingerprint}` (hex, colons allowed). */
export const WhiteLabelCertificateParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  fingerprint: Type.String({ minLength: 1, maxLength: 200 }),
});

/** Successful answer of `POST /oauth/token` (RFC 6749 §5.1). `expires_in` is in seconds. */
export const OAuthTokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
});
export type OAuthTokenResponse = Static<typeof OAuthTokenResponse>;

/** Error answer of `POST /oauth/token` (RFC 6749 §5.2). */
export const OAuthErrorBody = Type.Object({
  error: Type.Union([
    Type.Literal('invalid_request'),
    Type.Literal('invalid_client'),
    Type.Literal('invalid_grant'),
    Type.Literal('unauthorized_client'),
    Type.Literal('unsupported_grant_type'),
    Type.Literal('invalid_scope'),
    Type.Literal('temporarily_unavailable'),
    Type.Literal('server_error'),
  ]),
  error_description: Type.Optional(Type.String()),
});
export type OAuthErrorBody = Static<typeof OAuthErrorBody>;

/** Body of `POST /token/create` (the player sessions rule). An empty `player_id` creates a read-only viewer. */
export const CreateSessionBody = Type.Object(
  {
    locale: Type.String({ pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$', maxLength: 35 }),
    currency: WhiteLabelCurrency,
    player_id: Type.String({ maxLength: 128 }),
    params: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'sent back in the Foreign-Params header of every callback of this session',
      }),
    ),
    context: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
export type CreateSessionBody = Static<typeof CreateSessionBody>;

/** Answer of `POST /token/create`. */
export const CreateSessionResponse = Type.Object({ token: Type.String() });

/** Body of `POST /token/expire`: ends a session token of the calling white label. */
export const ExpireSessionBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

/** A white label as its own partner sees it (`GET /white-label`): no secrets, no credentials. */
export const PartnerWhiteLabelView = Type.Omit(WhiteLabelView, ['signing', 'credentials']);
