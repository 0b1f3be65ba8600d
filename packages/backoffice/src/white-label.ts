/** A white label as the API shows it (`GET /admin/white-labels/{id}`), and the names of its optional callbacks. */

export interface Credential {
  client_id: string;
  created_at: string;
  revoked_at: string | null;
}
export interface WhiteLabel {
  id: string;
  name: string;
  mode: string;
  currencies: string[];
  callback_url: string | null;
  limits: { min_stake: string | null; max_stake: string | null; max_payout: string | null };
  bet_interval: number;
  bet_delay: number;
  allowlist: string[];
  /** Web origins the betting frame may be embedded on (its API answers them with CORS). */
  allowed_origins: string[];
  signing: { enabled: boolean; secret?: string; previous_secret_valid_until: string | null };
  /** Per optional callback: what the partner announced, what Bookie learnt from its answers, whether it relies on it. */
  optional_callbacks?: Record<string, OptionalCallbackState>;
  credentials?: Credential[];
}

export interface OptionalCallbackState {
  announced: boolean | null;
  learnt: 'unknown' | 'supported' | 'unsupported';
  learnt_at: string | null;
  last_status: number | null;
  supported: boolean;
}

/** The optional callbacks, in the order the screen lists them, with what each one is for. */
export const OPTIONAL_CALLBACKS: ReadonlyArray<[string, string]> = [
  ['heartbeat', 'POST /heartbeat — keeps players’ sessions checked (sent only when announced)'],
  ['banners', 'POST /banners — banners in the betting frame'],
  ['cash_out', '/bet/cash-out-orders/accepted and /declined — cash-out is offered only while supported'],
  ['insurance', '/bet/insurances/accepted and /decline — bet insurance refunds'],
  ['insurance_cancel', '/bet/insurances/cancel — takes back a refund a corrected result no longer earns'],
];

export const announcedText = (a: boolean | null) =>
  a === null ? 'not said' : a ? 'implements' : 'does not implement';
