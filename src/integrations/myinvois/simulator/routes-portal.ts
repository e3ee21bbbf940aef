/**
 * The portal's public validation page a QR code on an e-invoice points to:
 * `GET /{uuid}/share/{longId}` answers a small HTML page saying whether LHDN holds the document as
 * valid (or cancelled), with its issuer, receiver, number and total. Unauthenticated, as LHDN's.
 */
import type { FastifyInstance } from 'fastify';
import { isoTime, type SimContext } from './context';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function registerPortalRoute(app: FastifyInstance, ctx: SimContext): void {
  app.get<{ Params: { uuid: string; longId: string } }>('/:uuid/share/:longId', async (request, reply) => {
    const doc = ctx.store.documents.get(request.params.uuid);
    if (!doc || !doc.longId || doc.longId !== request.params.longId || (doc.status !== 'Valid' && doc.status !== 'Cancelled')) {
      return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><title>Not found</title><p>No such e-invoice.</p>');
    }
    const rows: [string, string][] = [
      ['Status', doc.status],
      ['UUID', doc.uuid],
      ['Number', doc.internalId],
      ['Issuer', `${doc.issuerName} (${doc.issuerTin})`],
      ['Receiver', `${doc.receiverName} (${doc.receiverId})`],
      ['Total payable', doc.totals.payable],
      ['Validated', isoTime(doc.dateTimeValidated) ?? ''],
    ];
    const body = rows.map(([k, v]) => `<tr><th>${escape(k)}</th><td>${escape(v)}</td></tr>`).join('');
    return reply.type('text/html; charset=utf-8').send(`<!doctype html><title>e-Invoice ${escape(doc.internalId)}</title><h1>MyInvois (simulator)</h1><table>${body}</table>`);
  });
}
