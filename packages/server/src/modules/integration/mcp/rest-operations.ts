/**
 * The REST operations of Bookie's OpenAPI document as MCP tools (DECISIONS D52): one per operation, named by its
 * `operationId` (or, where an operation has none, by its method and path), with an input schema made from the same
 * schemas the route validates with (path and query parameters as properties, the JSON body under `body`).
 *
 * @packageDocumentation
 */

/** A JSON Schema object (as OpenAPI carries it). */
export type JsonSchema = Record<string, unknown>;

/** One REST operation, ready to be a tool. */
export interface RestOperation {
  /** The tool name: the `operationId`, or `<method>_<path>` (see {@link toolName}). */
  name: string;
  method: string;
  /** The OpenAPI path, e.g. `/freebet/{id}`. */
  path: string;
  operationId: string | undefined;
  summary: string;
  description: string;
  tags: string[];
  pathParams: string[];
  queryParams: string[];
  /** The JSON request body's schema, when the operation takes one. */
  bodySchema: JsonSchema | undefined;
  bodyRequired: boolean;
  /** The answer is a stream that does not end (`/log`, `/frame-api/stream`): not callable as a tool. */
  streaming: boolean;
  /** The tool's input schema. */
  inputSchema: JsonSchema & { type: 'object' };
  /** The OpenAPI responses, refs resolved. */
  responses: JsonSchema;
  /** The security schemes that may call it (`bearer`, `admin`, `basic`, `session`…); empty: no authentication. */
  security: string[];
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
  security?: Record<string, string[]>[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** An answer of this type does not end (a finite `application/x-ndjson` answer such as `/all` is a normal one). */
const STREAM_TYPE = 'text/event-stream';

/**
 * The tool name of an operation: its `operationId` when it has one, else `<method>_<path>` with every run of
 * characters outside `[A-Za-z0-9]` as one `_`, e.g. `GET /freebet/{id}` → `get_freebet_id`. MCP tool names allow
 * `[A-Za-z0-9_.-]`, at most 128 characters.
 */
export function toolName(method: string, path: string, operationId?: string): string {
  if (operationId) return operationId;
  const tail = path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return `${method.toLowerCase()}_${tail}`.slice(0, 128);
}

/** Replaces every `#/components/schemas/…` reference by the schema it names (a cycle stops at its `$ref`). */
export function resolveRefs(
  value: unknown,
  doc: OpenApiDocument,
  seen: ReadonlySet<string> = new Set(),
): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, doc, seen));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const ref = obj.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    const target = doc.components?.schemas?.[name];
    if (!target || seen.has(name)) return obj;
    return resolveRefs(target, doc, new Set([...seen, name]));
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = resolveRefs(v, doc, seen);
  return out;
}

/**
 * Every operation of an OpenAPI document, in document order, as {@link RestOperation}s. Two operations that would
 * get the same fallback name get `_2`, `_3`… in document order.
 */
export function restOperations(document: unknown): RestOperation[] {
  const doc = document as OpenApiDocument;
  const out: RestOperation[] = [];
  const used = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      let name = toolName(method, path, op.operationId);
      for (let i = 2; used.has(name); i++) name = `${toolName(method, path, op.operationId)}_${i}`;
      used.add(name);
      const params = (op.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const p of params) {
        properties[p.name] = resolveRefs(
          { ...(p.schema ?? { type: 'string' }), ...(p.description ? { description: p.description } : {}) },
          doc,
        );
        if (p.required || p.in === 'path') required.push(p.name);
      }
      const json = op.requestBody?.content?.['application/json'];
      const bodySchema = json?.schema ? (resolveRefs(json.schema, doc) as JsonSchema) : undefined;
      const bodyRequired = Boolean(op.requestBody?.required && bodySchema);
      if (bodySchema) {
        properties.body = bodySchema;
        if (bodyRequired) required.push('body');
      }
      properties.bearer_token = {
        type: 'string',
        description:
          "another bearer token for this one call, e.g. a player's session token for the frame API; default: this " +
          "connection's partner access token",
      };
      const ok = op.responses?.['200'] ?? op.responses?.['201'];
      // an operation streams when its answer's type says so, or its summary does (a route without a response schema)
      const streaming =
        Object.keys(ok?.content ?? {}).includes(STREAM_TYPE) ||
        `${op.summary ?? ''} ${op.description ?? ''}`.includes(STREAM_TYPE);
      out.push({
        name,
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        summary: op.summary ?? `${method.toUpperCase()} ${path}`,
        description: op.description ?? '',
        tags: op.tags ?? [],
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodySchema,
        bodyRequired,
        streaming,
        inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}) },
        responses: resolveRefs(op.responses ?? {}, doc) as JsonSchema,
        security: [...new Set((op.security ?? []).flatMap((r) => Object.keys(r)))],
      });
    }
  }
  return out;
}

/**
 * Whether a white label's partner (what an MCP connection authenticates as) may call an operation: one without
 * authentication, or one a partner token (`bearer`) or client credentials (`basic`) open. Operations only the operator
 * token or a backoffice session opens are not the partner's.
 */
export function partnerMayCall(op: Pick<RestOperation, 'security'>): boolean {
  return op.security.length === 0 || op.security.includes('bearer') || op.security.includes('basic');
}

/** The request a tool call makes: method, URL (path parameters filled in, query string) and JSON payload. */
export function requestOf(
  op: RestOperation,
  args: Record<string, unknown>,
): { method: string; url: string; payload: string | undefined } {
  let url = op.path;
  for (const p of op.pathParams) {
    const v = args[p];
    if (v === undefined || v === null || v === '')
      throw new Error(`${p}: required path parameter is missing`);
    url = url.replace(`{${p}}`, encodeURIComponent(String(v)));
  }
  const qs = new URLSearchParams();
  for (const q of op.queryParams) {
    const v = args[q];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const x of v) qs.append(q, String(x));
    else qs.set(q, String(v));
  }
  const query = qs.toString();
  const payload = op.bodySchema && args.body !== undefined ? JSON.stringify(args.body) : undefined;
  return { method: op.method, url: query ? `${url}?${query}` : url, payload };
}
