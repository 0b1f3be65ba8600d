/**
 * The SDK callback handler's own CPU per callback (`npm run bench -- sdk-callback [callbacks=20000]`): signed
 * `/bet/place` and `/bet/accept` requests, as Bookie sends them, through `createCallbackHandler` and its Fastify
 * adapter's answer path, with a store that answers every statement at once (no database), so what is measured is
 * the SDK: signature, Foreign-Params, JSON parse, lenient body check and filling, fingerprint, statement building,
 * answer. Reports CPU µs per callback (process user+system time over the timed loop) for the lenient and the strict
 * reading.
 */
import { createCallbackHandler, type IdempotencyStore } from '@bookie/sdk';
import { acceptBody, placeBody, prepareCallback } from '@bookie/sdk/callbacks/fixtures';
import type { BenchResult } from './types.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A store that claims every request with 204 and touches no database. */
const store: IdempotencyStore<undefined> = {
  execute: async (_key, _fp, apply) => ({ kind: 'applied', answer: await apply(undefined) }),
  executeStatement: async (_key, _fp, statement, answer) => {
    answer({ claimed: true, outcome: 'ok', n: statement.params.length });
    return { kind: 'applied', answer: { status: 204, contentType: '', body: '' } };
  },
};

const statement = (b: { bet_id: string; bet_stake: string }) => ({
  decide: 'd AS (SELECT 1)',
  claimWhen: 'true',
  effects: '',
  columns: "'ok' AS outcome",
  params: [b.bet_id, b.bet_stake],
  answer: () => ({ ok: true as const }),
});

/** Headers as Node's `IncomingHttpHeaders` gives them for Bookie's callback requests. */
function requests(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const name = i % 2 === 0 ? 'place' : 'accept';
    const body = name === 'place' ? placeBody({ bet_id: `b${i}` }) : acceptBody({ bet_id: `b${i}` });
    const p = prepareCallback(name, body, { secret: SECRET, foreignParams: { currency: 'EUR' } });
    return {
      method: 'POST',
      path: p.path,
      headers: {
        host: '127.0.0.1:4000',
        connection: 'keep-alive',
        'content-length': String(Buffer.byteLength(p.body)),
        'user-agent': 'undici',
        ...p.headers,
      },
      body: Buffer.from(p.body),
    };
  });
}

async function measure(strict: boolean, total: number): Promise<number> {
  const handler = createCallbackHandler({
    handlers: {},
    statements: { place: statement, accept: statement } as never,
    store,
    secret: [SECRET],
    strict,
  });
  const reqs = requests(total);
  const sent: string[] = [];
  const reply = {
    code: (_status: number) => reply,
    header: (k: string, v: string) => {
      sent.push(k, v);
      return reply;
    },
  };
  const send = async (r: (typeof reqs)[number]) => {
    const res = await handler.handle(r);
    if (res.status !== 204) throw new Error(`unexpected ${res.status} ${res.body}`);
    // the Fastify adapter's answer path
    sent.length = 0;
    reply.code(res.status);
    for (const [k, v] of Object.entries(res.headers)) reply.header(k, v);
    return res.body ? Buffer.from(res.body) : undefined;
  };
  for (const r of reqs.slice(0, Math.min(2000, total))) await send(r);
  const fresh = requests(total);
  const before = process.cpuUsage();
  for (const r of fresh) await send(r);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / total;
}

export default async function run(args: string[]): Promise<BenchResult[]> {
  const total = Number(args[0] ?? 20000);
  const lenient = await measure(false, total);
  const strict = await measure(true, total);
  return [
    {
      name: 'sdk-callback',
      metrics: { lenient_cpu_us_per_callback: lenient, strict_cpu_us_per_callback: strict },
      note: `${total} signed place/accept callbacks through createCallbackHandler, store without database`,
    },
  ];
}
