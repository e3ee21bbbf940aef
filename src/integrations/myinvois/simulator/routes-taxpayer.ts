/**
 * `GET /api/v1.0/taxpayer/validate/{tin}?idType=BRN|NRIC|PASSPORT|ARMY&idValue=`: 200 without a body
 * when the TIN is a registered taxpayer with that ID; 404 when not found or the combination is wrong;
 * 400 BadArgument for a missing or unknown idType or idValue.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from './context';
import { httpError, sendError } from './errors';

const ID_TYPES = ['BRN', 'NRIC', 'PASSPORT', 'ARMY'];

export function registerTaxpayerRoute(app: FastifyInstance, ctx: SimContext): void {
  app.get<{ Params: { tin: string }; Querystring: Record<string, string> }>(
    '/api/v1.0/taxpayer/validate/:tin',
    { config: { endpoint: 'validateTin', auth: true } },
    async (request, reply) => {
      const { idType, idValue } = request.query;
      if (!idType || !ID_TYPES.includes(idType)) return sendError(reply, 400, httpError('BadArgument', 'idType must be BRN, NRIC, PASSPORT or ARMY', 'idType'));
      if (!idValue || idValue.trim() === '') return sendError(reply, 400, httpError('BadArgument', 'idValue is mandatory', 'idValue'));
      const taxpayer = ctx.store.taxpayers.get(request.params.tin);
      if (!taxpayer || taxpayer.idType !== idType || taxpayer.idValue !== idValue.trim()) {
        return sendError(reply, 404, httpError('NotFound', 'Taxpayer not found or the TIN and ID do not match', 'tin'));
      }
      return reply.code(200).send();
    },
  );
}
