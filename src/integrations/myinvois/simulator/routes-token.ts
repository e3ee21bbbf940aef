/**
 * `POST /connect/token`: LHDN's identity service for ERP systems. Client credentials in the
 * form-urlencoded body (HTTP Basic is not read, as on the live service), grant_type client_credentials,
 * scope InvoicingAPI; an intermediary adds `onbehalfof: <TIN>` (or `<TIN>:<ROB>`). Answers a JWT valid
 * for one hour bound to the taxpayer, or 400 with an OAuth error.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from './context';
import { signToken } from './ids';

const TOKEN_LIFETIME_S = 3600;

function oauthError(error: string, description: string) {
  return { error, error_description: description };
}

export function registerTokenRoute(app: FastifyInstance, ctx: SimContext): void {
  app.post('/connect/token', { config: { endpoint: 'token', auth: false } }, async (request, reply) => {
    const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
    const body = (form ? request.body : undefined) as Record<string, string> | undefined;
    const clientId = body?.['client_id'];
    const clientSecret = body?.['client_secret'];
    if (!body || !clientId || !clientSecret || !body['grant_type']) {
      return reply.code(400).send(oauthError('invalid_request', 'client_id, client_secret and grant_type are required in the form-urlencoded body'));
    }
    if (body['grant_type'] !== 'client_credentials') {
      return reply.code(400).send(oauthError('unsupported_grant_type', 'Only the client_credentials grant is supported'));
    }
    const client = ctx.store.clients.get(clientId);
    if (!client || client.clientSecret !== clientSecret) {
      return reply.code(400).send(oauthError('invalid_client', 'The client id or secret is not valid'));
    }
    const scope = body['scope'] ?? 'InvoicingAPI';
    if (scope !== 'InvoicingAPI') return reply.code(400).send(oauthError('invalid_scope', 'The scope must be InvoicingAPI'));
    let tin = client.tin;
    const onBehalfOf = request.headers['onbehalfof'];
    if (typeof onBehalfOf === 'string' && onBehalfOf.trim() !== '') {
      const represented = onBehalfOf.split(':')[0]!.trim();
      if (!client.onBehalfOf?.includes(represented)) {
        return reply.code(400).send(oauthError('unauthorized_client', `The client is not an intermediary for taxpayer ${represented}`));
      }
      tin = represented;
    }
    const now = ctx.now();
    const expiresAt = now + TOKEN_LIFETIME_S * 1000;
    const token = signToken(ctx.tokenSecret, {
      iss: 'myinvois-simulator',
      client_id: clientId,
      taxpayer_tin: tin,
      scope,
      iat: Math.floor(now / 1000),
      nbf: Math.floor(now / 1000),
      exp: Math.floor(expiresAt / 1000),
      jti: `${clientId}-${now}-${ctx.store.tokens.size}`,
    });
    ctx.store.tokens.set(token, { token, clientId, tin, expiresAt });
    return reply.code(200).send({ access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S, scope });
  });
}
