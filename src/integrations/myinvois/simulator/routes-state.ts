/**
 * `PUT /api/v1.0/documents/state/{uuid}/state`: `{status: 'cancelled', reason}` by the issuer (the
 * submitter; the buyer for self-billed documents) or `{status: 'rejected', reason}` by the receiver,
 * only for a Valid document, within 72 hours of validation, without Valid notes referring to it; a
 * rejection is asked once and leaves the document Valid with `rejectRequestDateTime` and
 * `documentStatusReason`. Refusals: 400 OperationPeriodOver, IncorrectState, ActiveReferencingDocuments,
 * 403 Forbidden, 404 NotFound, 400 BadArgument.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from './context';
import { httpError, sendError } from './errors';
import type { SimDocument } from './types';
import { isNote, list, node, text } from './ubl';

export const STATE_WINDOW_MS = 72 * 3600 * 1000;

function referencingNotes(ctx: SimContext, doc: SimDocument): SimDocument[] {
  return [...ctx.store.documents.values()].filter((other) => other.status === 'Valid' && isNote(other.typeCode)
    && list(node(node(other.json, 'Invoice'), 'BillingReference'), 'InvoiceDocumentReference').some((ref) => text(ref, 'UUID') === doc.uuid));
}

export function registerStateRoute(app: FastifyInstance, ctx: SimContext): void {
  app.put<{ Params: { uuid: string } }>('/api/v1.0/documents/state/:uuid/state', { config: { endpoint: 'state', auth: true } }, async (request, reply) => {
    const body = request.body as Record<string, unknown> | undefined;
    const status = typeof body?.['status'] === 'string' ? body['status'].toLowerCase() : '';
    const reason = typeof body?.['reason'] === 'string' ? body['reason'].trim() : '';
    if (status !== 'cancelled' && status !== 'rejected') return sendError(reply, 400, httpError('BadArgument', 'status must be cancelled or rejected', 'status'));
    if (reason === '' || reason.length > 300) return sendError(reply, 400, httpError('BadArgument', 'reason is mandatory, at most 300 characters', 'reason'));
    const doc = ctx.store.documents.get(request.params.uuid);
    const tin = request.caller!.tin;
    const isIssuer = doc?.submitterTin === tin;
    const isReceiver = doc?.receiverId === tin;
    if (!doc || (!isIssuer && !(isReceiver && (doc.status === 'Valid' || doc.status === 'Cancelled')))) {
      return sendError(reply, 404, httpError('NotFound', 'Document not found', 'uuid'));
    }
    const cancel = status === 'cancelled';
    if (cancel ? !isIssuer : !isReceiver) {
      const message = cancel ? 'Only the issuer may cancel the document' : 'Only the receiver may reject the document';
      return sendError(reply, 403, httpError('Forbidden', message, doc.uuid));
    }
    if (doc.status !== 'Valid' || (!cancel && doc.rejectRequestDateTime !== null)) {
      const message = doc.status !== 'Valid' ? `The document is ${doc.status}: state transition not allowed` : 'A rejection was already requested for this document';
      return sendError(reply, 400, httpError('IncorrectState', message, doc.uuid));
    }
    const now = ctx.now();
    if (now - doc.dateTimeValidated! > STATE_WINDOW_MS) {
      return sendError(reply, 400, httpError('OperationPeriodOver', `The ${cancel ? 'cancellation' : 'rejection'} period of 72 hours after validation is over`, doc.uuid));
    }
    const notes = referencingNotes(ctx, doc);
    if (notes.length > 0) {
      return sendError(reply, 400, httpError('ActiveReferencingDocuments', `The document is referenced by valid documents: ${notes.map((n) => n.uuid).join(', ')}`, doc.uuid));
    }
    doc.documentStatusReason = reason;
    if (cancel) {
      doc.status = 'Cancelled';
      doc.cancelDateTime = now;
      return reply.send({ uuid: doc.uuid, status: 'Cancelled' });
    }
    doc.rejectRequestDateTime = now;
    return reply.send({ uuid: doc.uuid, status: 'Requested for Rejection' });
  });
}
