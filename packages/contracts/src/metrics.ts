/**
 * Wire format of the operator's metrics (`GET /metrics`, for Prometheus).
 *
 * @packageDocumentation
 */
import { Type } from '@sinclair/typebox';

/** Answer of `GET /metrics`: Prometheus text exposition format 0.0.4 (`text/plain`). */
export const MetricsExposition = Type.String({
  description: 'Prometheus text exposition format 0.0.4',
  examples: ['# HELP bookie_leader Whether this process leads a one-process role (1) or follows (0).\n'],
});
