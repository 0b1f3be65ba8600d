import type { BulkCreateFreebetsBody, BulkCreateFreebetsResponse } from '@bookie/contracts';
import { DomainError } from '@bookie/core';
import { errorBody, HTTP_STATUS } from '../../http/error-handler.js';
import { createFreebet } from './create-freebet.js';
import type { BonusesDeps } from './deps.js';

/**
 * Creates freebets in bulk (spec 01 `POST /freebet/create/bulk`; issue 9 "bulk answers per item"): each item is
 * created on its own, exactly as `POST /freebet/create` would (idempotent on its idempotence_id), and answered in
 * order with the status and error the single create would give (201, 200 for a repeat, 4xx with the error body's
 * `error`, fields named as in the single create). One bad item does
 * not stop the others.
 */
export async function createFreebetsBulk(
  deps: BonusesDeps,
  input: { whiteLabelId: string; body: BulkCreateFreebetsBody },
): Promise<BulkCreateFreebetsResponse> {
  const items: BulkCreateFreebetsResponse['items'] = [];
  for (const [index, body] of input.body.items.entries()) {
    try {
      const r = await createFreebet(deps, { whiteLabelId: input.whiteLabelId, body });
      items.push({ index, status: r.status, freebet: r.record });
    } catch (err) {
      if (!(err instanceof DomainError) || err.code === 'internal_error') throw err;
      items.push({ index, status: HTTP_STATUS[err.code], error: errorBody(err).error });
    }
  }
  return { items };
}
