import { CALLBACK_NAMES } from '@bookie/contracts';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  type ContractAnswer,
  callbackFixture,
  getContract,
  listCallbackEndpoints,
  SPECS,
} from './contract.js';
import { partnerMayCall, type RestOperation, requestOf } from './rest-operations.js';

/** The names of the contract tools (spec 01 "MCP server"). */
export const CONTRACT_TOOLS = ['get_contract', 'list_callback_endpoints', 'build_callback_fixture'] as const;

/** An answer of a REST route, as the tool returns it. */
export interface RouteAnswer {
  status: number;
  contentType: string | undefined;
  body: string;
}

/** Calls a route in-process (fastify `inject`) with the connection's bearer token unless the call gives another. */
export type RouteCaller = (
  request: { method: string; url: string; payload: string | undefined },
  bearerToken: string | undefined,
) => Promise<RouteAnswer>;

const CONTRACT_TOOL_DEFS: Tool[] = [
  {
    name: 'get_contract',
    description:
      'The integration contract. No arguments: the specs and who implements them. With spec: its operations. With ' +
      'spec and operation: the resolved request schema and answers of that operation.',
    inputSchema: {
      type: 'object',
      properties: {
        spec: { type: 'string', enum: Object.keys(SPECS), description: 'a spec name' },
        operation: { type: 'string', description: 'an operation of the spec (a tool name or callback name)' },
      },
    },
  },
  {
    name: 'list_callback_endpoints',
    description:
      "Every callback the partner's callback server implements: method, path, request headers and body schema, " +
      'and the expected answer.',
    inputSchema: { type: 'object', properties: {} },
  },
  {
    name: 'build_callback_fixture',
    description:
      'A valid, realistic example body of a callback (the same bodies the partner check sends), with optional ' +
      'overrides of its top-level fields; checked against the callback schema.',
    inputSchema: {
      type: 'object',
      properties: {
        callback: { type: 'string', enum: [...CALLBACK_NAMES], description: 'the callback name' },
        overrides: { type: 'object', description: 'body fields to set', additionalProperties: true },
      },
      required: ['callback'],
    },
  },
];

function contractResult(answer: ContractAnswer): CallToolResult {
  if (!answer.ok) return { isError: true, content: [{ type: 'text', text: answer.error }] };
  return {
    content: [{ type: 'text', text: JSON.stringify(answer.value, null, 2) }],
    structuredContent: answer.value as Record<string, unknown>,
  };
}

function operationTool(op: RestOperation): Tool {
  const description = [
    `${op.method} ${op.path}: ${op.summary}`,
    op.description,
    op.streaming
      ? 'The answer is a stream: connect to the REST endpoint directly; this tool cannot carry it.'
      : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return { name: op.name, title: op.summary, description, inputSchema: op.inputSchema };
}

type ArgumentCheck = (args: unknown) => { field: string; reason: string } | undefined;

const validator = new AjvJsonSchemaValidator();
const checks = new WeakMap<object, ArgumentCheck>();

/** A copy of a schema without `$id`/`$schema` (inlined components repeat their `$id`, which a validator refuses). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== '$id' && k !== '$schema') out[k] = withoutIds(v);
  return out;
}

/**
 * The first problem of a validator's message (`data/body/stake must be string, …`) as a field and a reason:
 * `body.stake` / `must be string`; a missing property is named itself (`body.stake` / `is required`).
 */
export function firstProblem(message: string): { field: string; reason: string } {
  const first = message.split(/, (?=data[/ ])/)[0] ?? message;
  const m = /^data(\S*) (.*)$/.exec(first);
  if (!m) return { field: 'arguments', reason: first };
  const path = (m[1] ?? '')
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')
    .replace(/^\./, '');
  const reason = m[2] ?? 'is invalid';
  const required = /^must have required property '(.+)'$/.exec(reason);
  if (required)
    return { field: path ? `${path}.${required[1]}` : String(required[1]), reason: 'is required' };
  return { field: path || 'arguments', reason };
}

/** The argument check of a tool, compiled once from its input schema (none when the schema does not compile). */
function argumentCheck(tool: { inputSchema: object }): ArgumentCheck {
  let check = checks.get(tool.inputSchema);
  if (!check) {
    try {
      const validate = validator.getValidator(withoutIds(tool.inputSchema) as Record<string, unknown>);
      check = (args) => {
        const r = validate(args);
        return r.valid ? undefined : firstProblem(r.errorMessage ?? '');
      };
    } catch {
      check = () => undefined;
    }
    checks.set(tool.inputSchema, check);
  }
  return check;
}

/** JSON-RPC invalid params (-32602) naming the argument, e.g. `body.stake: must be string`. */
function invalidParams(field: string, reason: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `${field}: ${reason}`, { field });
}

/**
 * Builds the MCP server of the integration environment (DECISIONS D52): the three contract tools and one tool per
 * REST operation. A tool call runs the route in-process through `call`, so its text is the REST answer's body, byte
 * for byte; `_meta` carries the HTTP status and content type, and a 4xx/5xx answer is an error result.
 *
 * The connection is a white label's partner: only the operations a partner may call are listed and callable (not the
 * operator's). Arguments are checked against the tool's input schema first: an unknown tool, a missing or
 * wrongly typed argument answers JSON-RPC invalid params (-32602) naming the argument, e.g. `body.stake`.
 */
export function createMcpServer(all: readonly RestOperation[], call: RouteCaller): Server {
  const operations = all.filter(partnerMayCall);
  const server = new Server(
    { name: 'bookie-integration', version: '0.1.0' },
    {
      capabilities: { tools: {} },
      instructions:
        'Bookie integration environment. Start with get_contract, list_callback_endpoints and ' +
        'build_callback_fixture; every REST operation is a tool named by its operationId.',
    },
  );
  const byName = new Map(operations.map((o) => [o.name, o]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...CONTRACT_TOOL_DEFS, ...operations.map(operationTool)],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const tool =
      CONTRACT_TOOL_DEFS.find((t) => t.name === request.params.name) ?? byName.get(request.params.name);
    if (!tool) throw invalidParams('name', `unknown tool ${JSON.stringify(request.params.name)}`);
    const problem = argumentCheck(tool)(args);
    if (problem) throw invalidParams(problem.field, problem.reason);
    switch (request.params.name) {
      case 'get_contract':
        return contractResult(
          getContract(all, {
            spec: typeof args.spec === 'string' ? args.spec : undefined,
            operation: typeof args.operation === 'string' ? args.operation : undefined,
          }),
        );
      case 'list_callback_endpoints':
        return contractResult({ ok: true, value: { callbacks: listCallbackEndpoints() } });
      case 'build_callback_fixture':
        return contractResult(callbackFixture(args.callback, args.overrides));
    }
    const op = byName.get(request.params.name) as RestOperation;
    if (op.streaming) {
      return {
        isError: true,
        content: [
          { type: 'text', text: `${op.method} ${op.path} answers a stream; call the REST endpoint directly` },
        ],
      };
    }
    let req: ReturnType<typeof requestOf>;
    try {
      req = requestOf(op, args);
    } catch (err) {
      const message = (err as Error).message;
      throw invalidParams(
        message.split(':')[0] ?? 'arguments',
        message.slice(message.indexOf(':') + 1).trim(),
      );
    }
    const token = typeof args.bearer_token === 'string' && args.bearer_token ? args.bearer_token : undefined;
    const answer = await call(req, token);
    return {
      isError: answer.status >= 400,
      content: [{ type: 'text', text: answer.body }],
      _meta: { 'bookie/status': answer.status, 'bookie/content-type': answer.contentType ?? null },
    };
  });
  return server;
}
