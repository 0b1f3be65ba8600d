/**
 * The framework-agnostic callback handler (the callback contract, "Endpoints", "Errors", "Events"; the rules in docs/decisions.md): verifies the
 * signature, parses `Foreign-Params`, validates the body against `@bookie/contracts`, calls the partner's typed
 * handler, and makes it idempotent through an {@link IdempotencyStore}. Adapters for Node http, Fastify and Express
 * turn it into a listener.
 *
 * @packageDocumentation
 */
import {
  CALLBACK_HEADERS,
  CALLBACK_PATHS,
  type CallbackName,
  type IdempotentCallbackName,
} from '@bookie/contracts';
import { isDomainError } from '@bookie/core';
import { readHeader, SignatureVerificationError, verifyCallback } from '../signing.js';
import { CallbackError } from './errors.js';
import { parseForeignParams } from './foreign-params.js';
import {
  type IdempotencyOutcome,
  type IdempotencyStore,
  requestFingerprint,
  type StoredAnswer,
} from './idempotency.js';
import { readCallbackBody } from './lenient.js';
import { MemoryIdempotencyStore } from './memory-store.js';
import type {
  CallbackHandlers,
  CallbackRequest,
  CallbackResponse,
  CallbackResult,
  CallbackStatement,
  CallbackStatements,
  StatementContext,
  TypedCallbackHandler,
} from './types.js';

/** Options of {@link createCallbackHandler}. */
export interface CallbackHandlerOptions<Tx> {
  /** The partner's typed handlers. */
  handlers: CallbackHandlers<Tx>;
  /**
   * Callbacks done as one SQL statement each (claim, effect and stored answer in one round trip); they take
   * precedence over `handlers`. Needs a store with `executeStatement` (the {@link SqlIdempotencyStore}).
   */
  statements?: CallbackStatements;
  /** Where answers are kept (default: a new {@link MemoryIdempotencyStore}, whose `tx` is `undefined`). */
  store?: IdempotencyStore<Tx>;
  /** The white label's signing secret(s) (the callback signing rule); required unless `verifySignature` is false. */
  secret?: string | readonly string[];
  /**
   * Check bodies against the exact contract (6-decimal amounts, every field present, closed bodies), for a partner's
   * own conformance tests. Default false: bodies as other implementations of the contract send them are accepted
   * and completed (see `lenient.ts`).
   */
  strict?: boolean;
  /** Verify the Standard Webhooks signature (default true, the callback signing rule). */
  verifySignature?: boolean;
  /** Signature timestamp tolerance in seconds (default 300, the callback signing rule). */
  toleranceSeconds?: number;
  /** Clock for the signature check (default: system time). */
  now?: () => Date;
  /** Path prefix the callbacks are mounted under, e.g. `/callbacks` (default none). */
  basePath?: string;
  /** Called with every unexpected error (the answer is then 500 and the claim released). */
  onError?: (err: unknown, info: { name: CallbackName | undefined; requestId: string | undefined }) => void;
}

/** A callback handler: one function from request to response, plus the paths it serves. */
export interface CallbackHandler {
  /** Handles one request; never throws. */
  handle(request: CallbackRequest): Promise<CallbackResponse>;
  /** The full paths served (basePath + each the callback contract / the heartbeat rule / the cash-out callbacks rule path). */
  readonly paths: readonly string[];
}

const JSON_TYPE = 'application/json';

function json(status: number, body: unknown, extra: Record<string, string> = {}): CallbackResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...extra }, body: JSON.stringify(body) };
}

function errorResponse(status: number, code: string, data?: Record<string, unknown>): CallbackResponse {
  return json(status, data === undefined ? { error: { code } } : { error: { code, data } });
}

function fromAnswer(answer: StoredAnswer, replayed: boolean): CallbackResponse {
  const headers: Record<string, string> = {};
  if (answer.contentType) headers['content-type'] = answer.contentType;
  if (replayed) headers['idempotent-replayed'] = 'true';
  return { status: answer.status, headers, body: answer.body };
}

/** Carries a transient refusal out of the store's unit of work, so that nothing is stored. */
class TransientRefusal extends Error {
  constructor(public readonly answer: StoredAnswer) {
    super('transient refusal');
  }
}

/** The answer to store for a handler's result; throws {@link TransientRefusal} for a transient refusal. */
function storable(result: unknown): StoredAnswer {
  if (result instanceof CallbackError && result.transient) throw new TransientRefusal(toAnswer(result));
  return toAnswer(result);
}

function toAnswer(result: unknown): StoredAnswer {
  if (result instanceof CallbackError) {
    return { status: result.status, contentType: JSON_TYPE, body: JSON.stringify(result.body) };
  }
  return { status: 204, contentType: '', body: '' };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Builds the callback handler (see the module comment). Answers:
 * - 204 success, or the handler's {@link CallbackError} (400, body (see "callback errors" in docs/decisions.md)); both stored and replayed byte-identical for
 *   every repeat of the `request_id` (header `idempotent-replayed: true` marks a replay); a `transient` CallbackError
 *   is answered but not stored, and its transaction rolled back;
 * - 409 `idempotency_conflict` for a known `request_id` with another body (nothing runs);
 * - 400 `validation_error` (`data.field`) for bad JSON, a body off the contract or a bad `Foreign-Params`;
 * - 401 `invalid_signature` (`data.reason`), 404 `not_found` / `not_implemented`, 405 for a method other than POST;
 * - 500 `internal_error` when the handler throws anything but a CallbackError (nothing stored: the retry runs again).
 *
 * With `statements`, those callbacks run as one SQL statement each, with the same answers.
 *
 * @throws TypeError when signature verification is on and no secret is given, or when `statements` are given and
 *   the store cannot run them.
 */
export function createCallbackHandler<Tx = undefined>(options: CallbackHandlerOptions<Tx>): CallbackHandler {
  const verify = options.verifySignature ?? true;
  if (verify && (options.secret === undefined || options.secret.length === 0)) {
    throw new TypeError('createCallbackHandler: a secret is required unless verifySignature is false');
  }
  const store = options.store ?? (new MemoryIdempotencyStore() as unknown as IdempotencyStore<Tx>);
  const statements = options.statements ?? {};
  if (Object.keys(statements).length > 0 && typeof store.executeStatement !== 'function') {
    throw new TypeError(
      'createCallbackHandler: statements need a store with executeStatement (the SQL store)',
    );
  }
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  const byPath = new Map<string, CallbackName>();
  for (const [name, path] of Object.entries(CALLBACK_PATHS)) byPath.set(base + path, name as CallbackName);
  const handlers = options.handlers;

  const readOptions = { strict: options.strict ?? false, limit: 1, inPlace: true } as const;

  async function handle(req: CallbackRequest): Promise<CallbackResponse> {
    const path = req.path.split('?')[0] ?? '';
    const name = byPath.get(path) ?? byPath.get(path.replace(/\/+$/, ''));
    if (!name) return errorResponse(404, 'not_found');
    if (req.method.toUpperCase() !== 'POST') {
      return {
        ...errorResponse(405, 'method_not_allowed'),
        headers: { 'content-type': JSON_TYPE, allow: 'POST' },
      };
    }
    // the verified webhook-id, which the body's request_id must equal
    let signedId: string | undefined;
    if (verify) {
      try {
        signedId = verifyCallback(req.headers, req.body, options.secret!, {
          toleranceSeconds: options.toleranceSeconds,
          now: options.now?.(),
        }).id;
      } catch (e) {
        if (e instanceof SignatureVerificationError)
          return errorResponse(401, 'invalid_signature', { reason: e.reason });
        throw e;
      }
    }
    let foreignParams: Record<string, unknown>;
    try {
      foreignParams = parseForeignParams(readHeader(req.headers, CALLBACK_HEADERS.foreignParams));
    } catch (e) {
      if (isDomainError(e))
        return errorResponse(400, 'validation_error', { field: 'headers.foreign-params' });
      throw e;
    }
    if (name === 'heartbeat') {
      try {
        await handlers.heartbeat?.({ name, foreignParams, headers: req.headers });
        return { status: 204, headers: {}, body: '' };
      } catch (e) {
        options.onError?.(e, { name, requestId: undefined });
        return errorResponse(500, 'internal_error');
      }
    }
    return handleIdempotent(name, req, foreignParams, signedId);
  }

  async function handleIdempotent(
    name: IdempotentCallbackName,
    req: CallbackRequest,
    foreignParams: Record<string, unknown>,
    signedId: string | undefined,
  ): Promise<CallbackResponse> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof req.body === 'string' ? req.body : utf8.decode(req.body));
    } catch {
      return errorResponse(400, 'validation_error', { field: 'body', message: 'must be a JSON object' });
    }
    // the body was parsed here and belongs to this request alone: its defaults are filled in place
    const read = readCallbackBody(name, parsed, readOptions);
    if (!read.ok) {
      const first = read.issues[0]!;
      return errorResponse(400, 'validation_error', {
        field: first.field ? `body.${first.field}` : 'body',
        message: first.message,
      });
    }
    const body = read.body;
    const requestId = (body as { request_id: string }).request_id;
    if (verify && signedId !== requestId) {
      return errorResponse(400, 'validation_error', {
        field: 'headers.webhook-id',
        message: 'must equal body.request_id (the callback signing rule)',
      });
    }
    const build = statements[name] as ((b: never, ctx: StatementContext) => CallbackStatement) | undefined;
    const handler = handlers[name] as TypedCallbackHandler<typeof name, Tx> | undefined;
    if (!build && !handler) return errorResponse(404, 'not_implemented');
    const fingerprint = requestFingerprint(name, req.body);
    const ctx: StatementContext = { name, requestId, foreignParams, headers: req.headers };
    try {
      const outcome = build
        ? await viaStatement(build, body, ctx, fingerprint)
        : await viaHandler(handler!, body, ctx, fingerprint);
      if (outcome.kind === 'conflict') {
        return errorResponse(409, 'idempotency_conflict', { request_id: requestId });
      }
      return fromAnswer(outcome.answer, outcome.kind === 'replayed');
    } catch (e) {
      if (e instanceof TransientRefusal) return fromAnswer(e.answer, false);
      options.onError?.(e, { name, requestId });
      return errorResponse(500, 'internal_error');
    }
  }

  function viaHandler(
    handler: TypedCallbackHandler<IdempotentCallbackName, Tx>,
    body: unknown,
    ctx: StatementContext,
    fingerprint: string,
  ): Promise<IdempotencyOutcome> {
    return store.execute(ctx.requestId, fingerprint, async (tx) => {
      let result: CallbackResult | CallbackError;
      try {
        result = await handler(body as never, { ...ctx, tx });
      } catch (e) {
        if (!(e instanceof CallbackError)) throw e;
        result = e;
      }
      return storable(result);
    });
  }

  function viaStatement(
    build: (b: never, ctx: StatementContext) => CallbackStatement,
    body: unknown,
    ctx: StatementContext,
    fingerprint: string,
  ): Promise<IdempotencyOutcome> {
    let statement: CallbackStatement;
    try {
      statement = build(body as never, ctx);
    } catch (e) {
      if (!(e instanceof CallbackError)) throw e;
      // refused before any SQL: stored (or not, when transient) like a handler's refusal
      return store.execute(ctx.requestId, fingerprint, async () => storable(e));
    }
    return store.executeStatement!(ctx.requestId, fingerprint, statement, (row) =>
      storable(statement.answer(row)),
    );
  }

  return {
    async handle(req) {
      try {
        return await handle(req);
      } catch (e) {
        options.onError?.(e, { name: undefined, requestId: undefined });
        return errorResponse(500, 'internal_error');
      }
    },
    paths: [...byPath.keys()],
  };
}
