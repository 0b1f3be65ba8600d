import { CALLBACK_NAMES } from '@bookie/contracts';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import {
  type ContractAnswer,
  callbackFixture,
  getContract,
  listCallbackEndpoints,
  SPECS,
} from './contract.js';
import { type RestOperation, requestOf } from './rest-operations.js';

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

/**
 * Builds the MCP server of the integration environment (DECISIONS D52): the three contract tools and one tool per
 * REST operation. A tool call runs the route in-process through `call`, so its text is the REST answer's body, byte
 * for byte; `_meta` carries the HTTP status and content type, and a 4xx/5xx answer is an error result.
 */
export function createMcpServer(operations: readonly RestOperation[], call: RouteCaller): Server {
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
    switch (request.params.name) {
      case 'get_contract':
        return contractResult(
          getContract(operations, {
            spec: typeof args.spec === 'string' ? args.spec : undefined,
            operation: typeof args.operation === 'string' ? args.operation : undefined,
          }),
        );
      case 'list_callback_endpoints':
        return contractResult({ ok: true, value: { callbacks: listCallbackEndpoints() } });
      case 'build_callback_fixture':
        return contractResult(callbackFixture(args.callback, args.overrides));
    }
    const op = byName.get(request.params.name);
    if (!op)
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${request.params.name}` }] };
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
      return { isError: true, content: [{ type: 'text', text: (err as Error).message }] };
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
