/**
 * The OpenAPI document a partner generates clients from (`/openapi.json`, `bookie openapi`). Routes declare what
 * only they know; this module completes the rest in one place:
 *
 * - a route's `schema` gives `operationId` (camelCase, unique), `summary`, `description`, `tags`, `security`
 *   (`[]` for a public route), its body/querystring/params, its success answers, and examples through
 *   {@link example} (TypeBox `examples` on the body and answer schemas);
 * - {@link completeDocument} adds the error answers every operation can give, each with the one error schema
 *   (`components.schemas.Error`): 400 when it takes input, 401/403 when it is authenticated, 404 when its path has a
 *   parameter, 429 for partner and player routes (rate limits), 500 always; a route may list more (409, 422, 503)
 *   as `response: { 409: ErrorResponse }`;
 * - every schema with a `title` becomes a named component (`#/components/schemas/<title>`); the exported schemas of
 *   `@bookie/contracts` get their export name as title (see {@link nameSchemas});
 * - servers, license and security schemes.
 *
 * `openapi.test.ts` checks every operation for these and runs Redocly's linter on the document.
 *
 * @packageDocumentation
 */
import * as contracts from '@bookie/contracts';
import type { SwaggerOptions } from '@fastify/swagger';
import { Kind, type TSchema, Type } from '@sinclair/typebox';

/** The one error body of Bookie's HTTP API: `{"error": {"code", "message", "details"}}`. */
export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.String({
        description:
          'stable code: validation_error, not_found, conflict, unauthorized, forbidden, rate_limited, ' +
          'version_expired, restricted, not_resulted, unavailable, internal_error',
      }),
      message: Type.String({ description: 'for people; a validation_error starts with the field' }),
      details: Type.Record(Type.String(), Type.Unknown(), {
        description: 'context; `field` names the offending field of a validation_error',
      }),
    }),
  },
  {
    title: 'Error',
    description: 'The error body of every Bookie HTTP API',
    examples: [
      {
        error: {
          code: 'validation_error',
          message: 'body.stake: must have at most 6 decimals, got 7',
          details: { field: 'body.stake' },
        },
      },
    ],
  },
);

/**
 * Returns `schema` with `examples` (shown as the example request or answer of the operations using it). The static
 * type is unchanged.
 */
export function example<T extends TSchema>(schema: T, ...examples: unknown[]): T {
  return { ...schema, examples } as T;
}

/**
 * Gives every exported TypeBox object schema of `module` without a title its export name as `title`, so that it
 * becomes a named component of the document. A title changes no validation.
 */
export function nameSchemas(module: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(module)) {
    if (typeof value !== 'object' || value === null || !(Kind in value)) continue;
    const schema = value as TSchema & { title?: string };
    if (schema.type === 'object' && schema.title === undefined && /^[A-Z]/.test(name)) schema.title = name;
  }
}

nameSchemas(contracts as Record<string, unknown>);

type Json = Record<string, unknown>;
type Operation = Json & {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: unknown[];
  requestBody?: Json;
  responses?: Record<string, Json>;
};

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/** What each error status means, as the answer's description. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'Bad input (`validation_error`): `details.field` names the field',
  '401': 'Missing, unknown or expired token (`unauthorized`); see the WWW-Authenticate header',
  '403': 'Not allowed (`forbidden`): an address off the white label allowlist, a disabled admin API',
  '404': 'Not found (`not_found`)',
  '409': 'Conflict with the current state (`conflict`, `version_expired`, `not_resulted`)',
  '422': 'Refused by a rule (`restricted`): `details` says which',
  '429': 'Too many requests (`rate_limited`); see the Retry-After header',
  '500': 'Internal error (`internal_error`): nothing was changed unless the answer says so; retry',
  '503': 'Unavailable (`unavailable`): stopping, or the database is unreachable; retry',
};

/** The operations of a document, with their method and path. */
export function operationsOf(doc: Json): Array<{ method: string; path: string; op: Operation }> {
  const out: Array<{ method: string; path: string; op: Operation }> = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Operation | undefined;
      if (op) out.push({ method, path, op });
    }
  }
  return out;
}

function errorAnswer(status: string): Json {
  return {
    description: ERROR_DESCRIPTIONS[status] ?? 'Error',
    content: { 'application/json': { schema: ERROR_REF } },
  };
}

/** The error statuses an operation can answer, from what it takes and how it is authenticated. */
function errorStatuses(path: string, op: Operation): string[] {
  const schemes = new Set((op.security ?? []).flatMap((s) => Object.keys(s)));
  const out = ['500'];
  if (op.requestBody || (op.parameters?.length ?? 0) > 0) out.push('400');
  if (schemes.size > 0) out.push('401', '403');
  if (path.includes('{')) out.push('404');
  if (schemes.has('bearer')) out.push('429');
  return out;
}

/** A JSON schema as @fastify/swagger writes it into the document: a record's `patternProperties` become `additionalProperties`. */
function openApiForm(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApiForm);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'patternProperties') out.additionalProperties = openApiForm(Object.values(v as Json)[0]);
    else out[k] = openApiForm(v);
  }
  return out;
}

function isSchema(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as Json;
  return ['type', 'properties', '$ref', 'anyOf', 'oneOf', 'allOf', 'items', 'enum', 'const'].some(
    (k) => k in s,
  );
}

/** `examples` on the schema of a media type (a route's own `content`) become the media type's example. */
function liftExamples(content: Record<string, Json> | undefined): void {
  for (const media of Object.values(content ?? {})) {
    const schema = media.schema as Json | undefined;
    if (media.example !== undefined || media.examples !== undefined || !Array.isArray(schema?.examples))
      continue;
    media.example = (schema.examples as unknown[])[0];
  }
}

/** Moves every schema with a `title` under `paths` into `components.schemas` (bottom-up) and refers to it. */
function hoistNamedSchemas(doc: Json, components: Record<string, unknown>): void {
  const texts = new Map<string, string>();
  // the same schema with or without its examples (a route's copy has them moved to the media type) is one schema
  const textOf = (schema: unknown) => JSON.stringify({ ...(schema as Json), examples: undefined });
  for (const [name, schema] of Object.entries(components)) texts.set(name, textOf(schema));
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    const obj = node as Json;
    for (const [k, v] of Object.entries(obj)) {
      // example values are data, not schemas
      if (k === 'example' || k === 'examples') continue;
      obj[k] = visit(v);
    }
    const title = obj.title;
    if (typeof title !== 'string' || !isSchema(obj) || !/^[A-Za-z][A-Za-z0-9_.-]*$/.test(title)) return obj;
    const text = textOf(obj);
    let name = title;
    for (let n = 2; texts.has(name) && texts.get(name) !== text; n++) name = `${title}${n}`;
    if (!texts.has(name)) {
      texts.set(name, text);
      components[name] = obj;
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  doc.paths = visit(doc.paths);
}

/**
 * Completes the document `@fastify/swagger` built from the routes (see the module comment): error answers with the
 * one error schema, named component schemas, and nothing else changed. Exported for tests.
 */
export function completeDocument(doc: Json): Json {
  const components = (doc.components ?? {}) as Json;
  doc.components = components;
  const schemas = (components.schemas ?? {}) as Record<string, unknown>;
  const { examples: errorExamples, ...errorSchema } = ErrorResponse as unknown as Json;
  schemas.Error = { ...(openApiForm(errorSchema) as Json), examples: errorExamples };
  components.schemas = schemas;
  for (const { path, op } of operationsOf(doc)) {
    op.responses ??= {};
    const responses = op.responses;
    for (const answer of Object.values(responses))
      liftExamples(answer.content as Record<string, Json> | undefined);
    for (const status of errorStatuses(path, op)) responses[status] ??= errorAnswer(status);
    for (const [status, answer] of Object.entries(responses)) {
      if (!/^[45]/.test(status)) continue;
      const content = answer.content as Record<string, Json> | undefined;
      // a route's `{ description }` alone, without a schema, is the one error body with that description
      const described = Object.values(content ?? {}).every((m) => !isSchema(m.schema));
      if (!content || described || answer.description === 'Default Response') {
        const own = answer.description !== 'Default Response' ? answer.description : undefined;
        responses[status] = {
          ...errorAnswer(status),
          ...(typeof own === 'string' ? { description: own } : {}),
          ...(content && !described ? { content } : {}),
        };
      }
    }
  }
  hoistNamedSchemas(doc, schemas);
  return doc;
}

/** The options of `@fastify/swagger`: document header, servers, security schemes, and {@link completeDocument}. */
export function openApiOptions(server: { url: string; description: string }): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bookie API',
        version: '0.1.0',
        description:
          'Bookie, an open-source B2B sportsbook platform: the trading feed, player sessions, bets, bonuses and ' +
          "the operator's admin API. Partners start with docs/partner-guide.md; every error answer has the body " +
          '`{"error": {"code", "message", "details"}}` (OAuth token errors excepted, which follow RFC 6749).',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [server],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'a partner access token from POST /oauth/token, or, on /frame-api, a player session token from ' +
              'POST /token/create',
          },
          admin: { type: 'http', scheme: 'bearer', description: 'the operator token (BOOKIE_ADMIN_TOKEN)' },
          basic: { type: 'http', scheme: 'basic', description: 'OAuth client id and secret' },
          // OpenAPI 3.1's mutualTLS scheme (the plugin's types know only 3.0's)
          clientCertificate: {
            type: 'mutualTLS',
            description:
              'a client certificate bound to the white label (bookie wl add-certificate); feed only',
          } as unknown as { type: 'http'; scheme: string },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'bookie_session',
            description:
              'backoffice session (POST /backoffice/api/session); every change also sends X-CSRF-Token. An ' +
              'operator user names the white label of partner operations in X-White-Label-Id.',
          },
        },
      },
    },
    // a schema with an $id is a component under that name
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `Schema${i}`,
    },
    transformObject: (documentObject) =>
      completeDocument((documentObject as { openapiObject: Json }).openapiObject) as never,
  };
}
