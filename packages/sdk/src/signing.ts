/**
 * Callback signing (the callback signing rule): Standard Webhooks headers `webhook-id` (= `request_id`), `webhook-timestamp`
 * (unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), computed with
 * node:crypto and checked against the `standardwebhooks` library in the tests. Bookie signs with {@link signCallback}; the partner verifies with
 * {@link verifyCallback} (5-minute tolerance by default).
 *
 * @packageDocumentation
 */
import { isUtf8 } from 'node:buffer';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The three signature headers of a signed callback (the callback signing rule), lower case. */
export type SignatureHeaders = {
  /** The message id: the callback's `request_id` (the callback requests rule). */
  'webhook-id': string;
  /** Unix time of signing, in whole seconds, as a decimal string. */
  'webhook-timestamp': string;
  /** Space-separated `v1,<base64>` signatures (one per secret when several are active). */
  'webhook-signature': string;
};

/** A request body as sent on the wire: the exact bytes (a `Uint8Array`/`Buffer`) or their UTF-8 string. */
export type RawBody = string | Uint8Array;

/** Input of {@link signCallback}. */
export interface SignCallbackInput {
  /** The white label's signing secret: `whsec_<base64>` (or bare base64), as made by {@link generateSigningSecret}. */
  secret: string;
  /** The message id: the callback's `request_id` (the callback requests rule). */
  id: string;
  /** Time of signing: unix seconds (integer) or a `Date` (truncated to the second). */
  timestamp: number | Date;
  /** The exact body bytes sent (a heartbeat's empty body is `""`). */
  body: RawBody;
}

/** Why {@link verifyCallback} refused a request. */
export type SignatureFailure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'no_matching_signature';

/** Thrown by {@link verifyCallback} when a callback's signature does not verify (the callback signing rule). */
export class SignatureVerificationError extends Error {
  /** The reason, a stable code. */
  public readonly reason: SignatureFailure;
  constructor(reason: SignatureFailure, message: string) {
    super(message);
    this.name = 'SignatureVerificationError';
    this.reason = reason;
  }
}

/** Options of {@link verifyCallback}. */
export interface VerifyCallbackOptions {
  /** Largest allowed distance between `webhook-timestamp` and now, in seconds (default 300, the callback signing rule). */
  toleranceSeconds?: number;
  /** The current time (default: the system clock). */
  now?: Date;
}

/** Headers as Node (`IncomingHttpHeaders`), the fetch API (`Headers`) or a plain object give them. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function bodyString(body: RawBody): string {
  return typeof body === 'string'
    ? body
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString();
}

function toUnixSeconds(t: number | Date): number {
  const s = t instanceof Date ? Math.floor(t.getTime() / 1000) : t;
  if (!Number.isSafeInteger(s) || s < 0) throw new RangeError(`timestamp must be unix seconds, got ${s}`);
  return s;
}

/**
 * Signs a callback (the callback signing rule) and returns the three headers to send with it.
 *
 * @example `signCallback({ secret, id: body.request_id, timestamp: new Date(), body: bytes })`
 * @throws Error when the secret is empty or not base64.
 */
const keys = new Map<string, Buffer>();

/** The HMAC key of a `whsec_<base64>` (or bare base64) secret, decoded once per secret. */
function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
    if (keys.size > 1000) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/**
 * The Standard Webhooks `v1` signature: base64 of HMAC-SHA256 over `id.timestamp.body` (the callback signing rule), computed with
 * node:crypto (the standardwebhooks package's pure-JS SHA-256 cost ~100 µs per callback; signing.test.ts checks
 * both agree). Bytes are hashed as they are when they are valid UTF-8 (the same bytes as the UTF-8 of their string,
 * without decoding them), and as their decoded string (invalid sequences replaced) otherwise, as the signer's string
 * would be.
 */
function signatureV1(secret: string, id: string, ts: number, body: RawBody): string {
  const hmac = createHmac('sha256', keyOf(secret)).update(`${id}.${ts}.`);
  if (typeof body === 'string' || isUtf8(body)) hmac.update(body);
  else hmac.update(bodyString(body));
  return hmac.digest('base64');
}

export function signCallback(input: SignCallbackInput): SignatureHeaders {
  const ts = toUnixSeconds(input.timestamp);
  const signature = `v1,${signatureV1(input.secret, input.id, ts, input.body)}`;
  return { 'webhook-id': input.id, 'webhook-timestamp': String(ts), 'webhook-signature': signature };
}

/** Reads one header case-insensitively from any {@link HeaderSource}; the first value when repeated. */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const lower = name.toLowerCase();
  const record = headers as Record<string, string | string[] | undefined>;
  for (const k of Object.keys(record)) {
    if (k !== lower && k.toLowerCase() !== lower) continue;
    const v = record[k];
    if (v === undefined) continue;
    return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

/**
 * Verifies a signed callback (the callback signing rule): the headers must be present, `webhook-timestamp` within
 * `toleranceSeconds` of now, and one `v1` signature of `webhook-signature` must equal the HMAC of
 * `"id.timestamp.body"` under one of `secret` (several secrets allow rotation).
 *
 * @param headers - the request headers (any case).
 * @param body - the exact body bytes received (not re-serialised JSON).
 * @param secret - the signing secret (`whsec_…`), or several during a rotation.
 * @returns the verified message id (`request_id`) and timestamp (unix seconds).
 * @throws SignatureVerificationError with a {@link SignatureFailure} reason.
 */
export function verifyCallback(
  headers: HeaderSource,
  body: RawBody,
  secret: string | readonly string[],
  options: VerifyCallbackOptions = {},
): { id: string; timestamp: number } {
  const id = readHeader(headers, 'webhook-id');
  const tsHeader = readHeader(headers, 'webhook-timestamp');
  const sigHeader = readHeader(headers, 'webhook-signature');
  if (!id || !tsHeader || !sigHeader) {
    throw new SignatureVerificationError('missing_headers', 'missing webhook-id, -timestamp or -signature');
  }
  if (!/^\d{1,15}$/.test(tsHeader)) {
    throw new SignatureVerificationError('invalid_timestamp', 'webhook-timestamp is not unix seconds');
  }
  const ts = Number(tsHeader);
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ? options.now.getTime() : Date.now()) / 1000);
  if (now - ts > tolerance)
    throw new SignatureVerificationError('timestamp_too_old', 'message timestamp too old');
  if (ts - now > tolerance)
    throw new SignatureVerificationError('timestamp_too_new', 'message timestamp too new');
  // the `v1` signatures passed, as sent (`v1,<sig>[,…]`, space-separated)
  const passed: string[] = [];
  for (const entry of sigHeader.split(' ')) {
    const [version, sig] = entry.split(',');
    if (version === 'v1' && sig !== undefined) passed.push(sig);
  }
  const secrets = typeof secret === 'string' ? [secret] : secret;
  for (const s of secrets) {
    const expected = signatureV1(s, id, ts, body);
    let expectedBytes: Buffer | undefined;
    for (const p of passed) {
      // a base64 signature is ASCII: a passed one of another length (in UTF-16 units) has other bytes or
      // another byte length, so it cannot match
      if (p.length !== expected.length) continue;
      expectedBytes ??= Buffer.from(expected, 'latin1');
      const passedBytes = Buffer.from(p, 'utf8');
      if (passedBytes.length === expectedBytes.length && timingSafeEqual(passedBytes, expectedBytes)) {
        return { id, timestamp: ts };
      }
    }
  }
  throw new SignatureVerificationError('no_matching_signature', 'no matching signature found');
}

/** Makes a new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks format, the callback signing rule). */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
