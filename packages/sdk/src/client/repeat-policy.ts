/**
 * Which partner requests the SDK's REST clients send again after a 5xx answer or a lost connection, where the first
 * attempt may have been processed already. A repeat must then be harmless:
 *
 * - `GET`, `HEAD`, `OPTIONS`, `PUT` and `DELETE` are idempotent by HTTP's definition, and Bookie's are (a `PUT`
 *   replaces a whole state, `DELETE /bets` of a withdrawn bet answers the same);
 * - a `POST` only when Bookie answers its repeat with the first outcome: the creations that take an
 *   `idempotence_id` ({@link IDEMPOTENCE_ID_POSTS}; the client generates one with `crypto.randomUUID()` when the
 *   caller gave none, so the retry carries the same), the bulk freebet creation (one per item), the requests keyed
 *   by an id of the caller's that Bookie deduplicates, and the ones that change nothing
 *   ({@link REPEATABLE_POSTS});
 * - any other `POST`, and every `PATCH`, is sent once: a 5xx or a lost connection comes back to the caller, who
 *   knows whether repeating it is right (`POST /token/create` would make a second session, a repeated cancel
 *   answers 409…).
 *
 * A 429 is retried on every route: Bookie refused the request before processing it.
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto';

/** `POST` operations whose body takes an `idempotence_id`: a repeat with it answers the same object (200). */
export const IDEMPOTENCE_ID_POSTS: readonly string[] = [
  '/bet-boosts',
  '/freebet/create',
  '/insurance/create',
];

/** `POST` operations whose body's `items` each take an `idempotence_id`. */
export const IDEMPOTENCE_ID_ITEM_POSTS: readonly string[] = ['/freebet/create/bulk'];

/**
 * `POST` operations safe to repeat as they are: keyed by an id the caller must send, which Bookie deduplicates
 * (`POST /bets` and `/bets/advisory` by `bet_id`, a cash-out order by `id`), or changing nothing a repeat could
 * double (a client-credentials token, ending a session token, a cash-out quote, a bet builder's selections or quote).
 */
export const REPEATABLE_POSTS: readonly string[] = [
  '/oauth/token',
  '/token/expire',
  '/bets',
  '/bets/advisory',
  '/bets/{bet_id}/cash-out-orders/place',
  '/bets/{bet_id}/cash-out-orders/calculate',
  '/bets/{bet_id}/cash-out-orders/simplified-calculate',
  '/bet-builder/selections',
  '/bet-builder/calculate',
];

/** Methods idempotent by HTTP's definition: always safe to repeat. */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** How a request of an operation may be repeated: as it is, once it carries idempotence ids, or not at all. */
export type RepeatRule = 'repeatable' | 'idempotence_id' | 'idempotence_id_items' | 'never';

/**
 * The {@link RepeatRule} of an operation, by method and path template (`/bets/{bet_id}/cancel`, as the OpenAPI
 * document names it).
 */
export function repeatRule(method: string, pathTemplate: string): RepeatRule {
  const m = method.toUpperCase();
  if (IDEMPOTENT_METHODS.has(m)) return 'repeatable';
  if (m !== 'POST') return 'never';
  if (IDEMPOTENCE_ID_POSTS.includes(pathTemplate)) return 'idempotence_id';
  if (IDEMPOTENCE_ID_ITEM_POSTS.includes(pathTemplate)) return 'idempotence_id_items';
  return REPEATABLE_POSTS.includes(pathTemplate) ? 'repeatable' : 'never';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The body with an `idempotence_id` wherever the rule takes one and the caller gave none (`undefined` or absent):
 * a new `crypto.randomUUID()`, made once per call so every retry of the call sends the same. A body of another shape
 * is returned as it is (Bookie answers it 400 naming the field).
 *
 * @param newId the id maker (default `crypto.randomUUID`).
 */
export function withIdempotenceIds(
  body: unknown,
  rule: RepeatRule,
  newId: () => string = randomUUID,
): unknown {
  const fill = (o: Record<string, unknown>) =>
    o.idempotence_id === undefined ? { ...o, idempotence_id: newId() } : o;
  if (rule === 'idempotence_id' && isObject(body)) return fill(body);
  if (rule === 'idempotence_id_items' && isObject(body) && Array.isArray(body.items)) {
    return { ...body, items: body.items.map((item) => (isObject(item) ? fill(item) : item)) };
  }
  return body;
}
