import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from './request-logger.js';

/** A pino logger writing its lines into `lines`, and a count of the children made of it. */
function recording(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const root = pino({ level, base: { svc: 'bookie' } }, { write: (s: string) => lines.push(JSON.parse(s)) });
  let children = 0;
  const child = root.child;
  // counted on every logger made of it too (a pino child inherits its parent's methods)
  (root as { child: unknown }).child = function (this: typeof root, ...args: Parameters<typeof child>) {
    children++;
    return child.apply(this, args);
  };
  return { root: root as unknown as FastifyBaseLogger, lines, children: () => children };
}

describe('a request logger made when the request logs', () => {
  it('makes no child for a request that does not log', () => {
    const r = recording();
    lazyRequestLogger(r.root, { reqId: 'req-1' }, {});
    expect(r.children()).toBe(0);
  });

  it("logs what the request's child logs, with its bindings, and makes the child once", () => {
    const r = recording();
    const log = lazyRequestLogger(r.root, { reqId: 'req-1' }, {});
    log.warn({ err: 'x' }, 'first');
    log.error('second');
    log.debug('below the level');
    expect(r.children()).toBe(1);
    expect(r.lines.map((l) => [l.svc, l.reqId, l.level, l.msg, l.err])).toEqual([
      ['bookie', 'req-1', 40, 'first', 'x'],
      ['bookie', 'req-1', 50, 'second', undefined],
    ]);
  });

  it("keeps the child's options and level, and makes children of its own", () => {
    const r = recording();
    const log = lazyRequestLogger(r.root, { reqId: 'req-2' }, { level: 'debug' });
    expect(log.level).toBe('debug');
    log.debug('now logged');
    log.child({ step: 'hold' }).info('from a child');
    log.level = 'error';
    log.warn('no longer logged');
    expect(r.children()).toBe(2);
    expect(r.lines.map((l) => [l.reqId, l.step, l.msg])).toEqual([
      ['req-2', undefined, 'now logged'],
      ['req-2', 'hold', 'from a child'],
    ]);
  });
});
