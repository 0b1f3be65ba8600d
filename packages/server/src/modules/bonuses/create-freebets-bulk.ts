import {
  type BulkCreateFreebetsBody,
  type BulkCreateFreebetsResponse,
  CreateFreebetBody,
} from '@bookie/contracts';
import { DomainError, validationError } from '@bookie/core';
import { errorBody, HTTP_STATUS } from '../../http/error-handler.js';
import { checkSchema } from '../tenants/index.js';
import { createFreebet } from './create-freebet.js';
import type { BonusesDeps } from './deps.js';

/**
 * Creates freebets in bulk (spec 01 `POST /freebet/create/bulk`; bulk answers per item): each item is
 * created on its own, exactly as `POST /freebet/create` would (idempotent on its idempotence_id), and answered in
 * order with the status and error the single create would give (201, 200 for a repeat, 4xx with the error body's
 * `error`, fields named as in the single create). One bad item — even one that does not fit the item schema — does
 * not stop the others: only a body that is not `{items: [1..1000 objects]}` is refused whole.
 *
 * @throws DomainError validation_error (`body.items`) for a body without its item list.
 */
export async function createFreebetsBulk(
  deps: BonusesDeps,
  input: { whiteLabelId: string; body: BulkCreateFreebetsBody | unknown },
): Promise<BulkCreateFreebetsResponse> {
  const list = (input.body as { items?: unknown } | null | undefined)?.items;
  if (!Array.isArray(list) || list.length < 1 || list.length > 1000) {
    throw validationError('body.items', 'must be an array of 1 to 1000 freebets');
  }
  const items: BulkCreateFreebetsResponse['items'] = [];
  for (const [index, body] of list.entries()) {
    try {
      checkSchema(CreateFreebetBody, body, 'body');
      const r = await createFreebet(deps, {
        whiteLabelId: input.whiteLabelId,
        body: body as CreateFreebetBody,
      });
      items.push({ index, status: r.status, freebet: r.record });
    } catch (err) {
      if (!(err instanceof DomainError) || err.code === 'internal_error') throw err;
      items.push({ index, status: HTTP_STATUS[err.code], error: errorBody(err).error });
    }
  }
  return { items };
}
