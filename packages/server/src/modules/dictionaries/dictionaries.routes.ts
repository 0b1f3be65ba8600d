import { Dictionary, DictionaryParams, DictionaryQuery, errorAnswers } from '@bookie/contracts';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { PARTNER_SECURITY } from '../../http/auth.js';
import { partnerOf } from '../../http/request-context.js';
import type { PlatformServices } from '../../platform/services.js';
import { getDictionary } from './get-dictionary.js';

/** Partner REST dictionaries (DECISIONS D54): reference data with names per locale. */
export async function dictionariesRoutes(
  app: FastifyInstance,
  deps: Pick<PlatformServices, 'database'>,
): Promise<void> {
  app.get<{ Params: Static<typeof DictionaryParams>; Querystring: Static<typeof DictionaryQuery> }>(
    '/dictionaries/:name',
    {
      preHandler: app.requirePartner,
      schema: {
        tags: ['dictionaries'],
        security: PARTNER_SECURITY,
        operationId: 'getDictionary',
        summary: 'A dictionary of reference data',
        description:
          'sports, tournaments and market types of the book; the restriction types; the bet status ' +
          'numbers; the white label’s currencies. `locale` (en, de, es; default en) picks the language of ' +
          'the names; tournament names are the feed’s own.',
        params: DictionaryParams,
        querystring: DictionaryQuery,
        response: { 200: Dictionary, ...errorAnswers(400, 401, 403, 404, 429) },
      },
    },
    async (req) =>
      getDictionary(deps.database.db, {
        whiteLabelId: partnerOf(req).whiteLabelId,
        name: req.params.name,
        locale: req.query.locale ?? 'en',
      }),
  );
}
