import { AsyncLocalStorage } from 'node:async_hooks';
import { DomainError } from '@bookie/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.js';
import type { DB, TransactionBuilder } from '../../db/schema.js';
import type { Executor } from '../../db/transaction.js';
import { actorOf, isSafeMethod } from '../../http/auth.js';
import type { Clock } from '../../platform/clock.js';
import { redactSecrets } from './session-authenticator.js';
import { insertAuditRow } from './users.repo.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** True once the audit row of a backoffice user's change is written. */
    auditWritten?: boolean;
  }
}

/** The request whose handler is running, so that a transaction it opens can carry the request's audit row. */
const running = new AsyncLocalStorage<FastifyRequest>();
/** Requests whose handler has returned. */
const answered = new WeakSet<FastifyRequest>();

const SESSION_ROUTE = '/backoffice/api/session';

function awaitsItsRow(req: FastifyRequest | undefined): req is FastifyRequest {
  return (
    req !== undefined &&
    req.user !== undefined &&
    req.auditBefore !== undefined &&
    req.auditWritten !== true &&
    !isSafeMethod(req.method) &&
    req.routeOptions.url !== SESSION_ROUTE
  );
}

async function writeRow(
  db: Executor,
  clock: Clock,
  req: FastifyRequest,
  status: number | null,
): Promise<void> {
  req.auditWritten = true;
  const routeUrl = req.routeOptions.url ?? req.url.split('?')[0] ?? req.url;
  const subject = req.auditBefore?.subject;
  let after: unknown = null;
  try {
    after = subject ? await subject.read(db) : null;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
  }
  await insertAuditRow(db, {
    at: new Date(clock.now()),
    actor: actorOf(req),
    action: `${req.method} ${routeUrl}`,
    subject: subject?.subject ?? routeUrl,
    details: redactSecrets({
      params: req.params ?? {},
      body: req.body ?? null,
      ...(status === null ? {} : { status }),
      white_label_id: req.partner?.whiteLabelId ?? req.user?.whiteLabelId ?? null,
      before: req.auditBefore?.before ?? null,
      after,
    }),
  });
}

/**
 * The audit row of every change a backoffice user makes (who, what, the subject's state before and after) commits
 * in the change's own transaction: the handler of such a change runs with its request in an AsyncLocalStorage, and
 * the first transaction the handler opens writes the row just before it commits. A change that fails (rolled back)
 * leaves no row; a row that cannot be written rolls the change back. A change made without a transaction of its own
 * (one statement) gets its row once it answered successfully, before the answer is sent.
 */
export function auditUserChanges(app: FastifyInstance, deps: { database: Database; clock: Clock }): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    // only a backoffice user's change runs in the store (set by the session check before the handler): other
    // requests pay nothing for it
    route.handler = function (this: FastifyInstance, req, reply) {
      if (!awaitsItsRow(req)) return handler.call(this, req, reply);
      return running.run(req, async () => {
        try {
          return await handler.call(this, req, reply);
        } finally {
          // work the handler started that outlives it (a timer, a shared cache load) keeps the store: its
          // transactions are not the change's
          answered.add(req);
        }
      });
    };
  });

  const kysely = deps.database.db;
  const open = kysely.transaction.bind(kysely);
  const withRow = (builder: TransactionBuilder<DB>): TransactionBuilder<DB> =>
    new Proxy(builder, {
      get(target, prop) {
        if (prop === 'execute') {
          return <T>(
            fn: (tx: Parameters<Parameters<TransactionBuilder<DB>['execute']>[0]>[0]) => Promise<T>,
          ) =>
            target.execute(async (tx) => {
              const result = await fn(tx);
              const req = running.getStore();
              if (awaitsItsRow(req) && !answered.has(req)) await writeRow(tx, deps.clock, req, null);
              return result;
            });
        }
        const value = Reflect.get(target, prop, target);
        if (prop === 'setIsolationLevel' || prop === 'setAccessMode') {
          return (arg: never) => withRow((value as (a: never) => TransactionBuilder<DB>).call(target, arg));
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  kysely.transaction = () => withRow(open());

  // every other answer passes at once, with no promise
  app.addHook('onSend', (req, reply, payload, done) => {
    if (reply.statusCode >= 400 || !awaitsItsRow(req)) return done(null, payload);
    writeRow(deps.database.db, deps.clock, req, reply.statusCode)
      .catch((err) => req.log.error({ err }, 'audit of a backoffice change failed'))
      .then(() => done(null, payload));
  });
}
