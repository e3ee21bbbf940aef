/**
 * `POST /api/v1.0/documentsubmissions`: the envelope `{documents: [{format, document, documentHash,
 * codeNumber}]}`, at most 100 documents and 5 MB, an identical payload from the same taxpayer within
 * 10 minutes refused (422 DuplicateSubmission with Retry-After), then 202 with the submission UID, the
 * accepted documents (now `Submitted`) and the rejected ones.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { SimContext } from './context';
import { httpError, sendError, type HttpError } from './errors';
import { newUid } from './ids';
import { acceptDocument, type EnvelopeDocument } from './submission-docs';

export const MAX_DOCUMENTS = 100;
export const MAX_SUBMISSION_BYTES = 5 * 1024 * 1024;
const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;
const ENTRY_KEYS = ['format', 'document', 'documentHash', 'codeNumber'];

function badStructure(message: string): HttpError {
  return httpError('BadStructure', message, 'documents', [{ code: 'BadStructure', message, target: 'documents' }]);
}

function isEntry(value: unknown): value is EnvelopeDocument {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.every((key) => ENTRY_KEYS.includes(key))
    && ENTRY_KEYS.every((key) => typeof (value as Record<string, unknown>)[key] === 'string' && (value as Record<string, string>)[key] !== '');
}

export function registerSubmitRoute(app: FastifyInstance, ctx: SimContext): void {
  app.post('/api/v1.0/documentsubmissions', { config: { endpoint: 'submit', auth: true } }, async (request, reply) => {
    const caller = request.caller!;
    if (!request.headers['content-type']?.startsWith('application/json')) {
      return sendError(reply, 400, badStructure('Content-Type must be application/json'));
    }
    const body = request.body as Record<string, unknown> | undefined;
    const documents = body?.['documents'];
    if (!body || Object.keys(body).some((key) => key !== 'documents') || !Array.isArray(documents) || documents.length === 0) {
      return sendError(reply, 400, badStructure('The submission must be {"documents": [...]} with at least one document'));
    }
    for (const entry of documents) {
      if (entry && typeof entry === 'object' && typeof (entry as Record<string, unknown>)['codeNumber'] === 'string') {
        ctx.store.countSubmitted((entry as Record<string, string>)['codeNumber']!, request.caller?.clientId);
      }
    }
    if (documents.length > MAX_DOCUMENTS) {
      return sendError(reply, 400, httpError('MaximumSizeExceeded', `A submission holds at most ${MAX_DOCUMENTS} documents`, 'documents', [
        { code: 'MaximumSizeExceeded', message: `Maximum documents per submission: ${MAX_DOCUMENTS}`, target: 'documents' },
      ]));
    }
    const size = Buffer.byteLength(request.rawBody ?? '', 'utf8');
    if (size > MAX_SUBMISSION_BYTES) {
      return sendError(reply, 400, httpError('MaximumSizeExceeded', `The submission is ${size} bytes; the maximum is 5 MB`, 'documents', [
        { code: 'MaximumSizeExceeded', message: 'Maximum submission size: 5 MB', target: 'documents' },
      ]));
    }
    if (!documents.every(isEntry)) {
      return sendError(reply, 400, badStructure('Each document must have exactly format, document, documentHash and codeNumber, all strings'));
    }
    const now = ctx.now();
    const payloadKey = `${caller.tin}|${createHash('sha256').update(request.rawBody ?? '').digest('hex')}`;
    const seenAt = ctx.store.recentPayloads.get(payloadKey);
    if (seenAt !== undefined && now - seenAt < DUPLICATE_WINDOW_MS) {
      reply.header('Retry-After', String(Math.ceil((seenAt + DUPLICATE_WINDOW_MS - now) / 1000)));
      return sendError(reply, 422, httpError('DuplicateSubmission', 'An identical submission was received in the past 10 minutes', 'documents', [
        { code: 'DuplicateSubmission', message: 'Identical payload submitted within 10 minutes', target: 'documents' },
      ]));
    }
    const submissionUid = newUid();
    const accepted: { uuid: string; invoiceCodeNumber: string }[] = [];
    const rejected: { invoiceCodeNumber: string; error: HttpError }[] = [];
    for (const entry of documents) {
      const result = acceptDocument(entry, caller.tin, caller.clientId, submissionUid, now);
      if ('uuid' in result) {
        ctx.store.documents.set(result.uuid, result);
        accepted.push({ uuid: result.uuid, invoiceCodeNumber: entry.codeNumber });
      } else {
        rejected.push({ invoiceCodeNumber: entry.codeNumber, error: result });
      }
    }
    ctx.store.recentPayloads.set(payloadKey, now);
    if (accepted.length > 0) {
      ctx.store.submissions.set(submissionUid, {
        submissionUid, submitterTin: caller.tin, clientId: caller.clientId, dateTimeReceived: now, documentUuids: accepted.map((doc) => doc.uuid),
      });
    }
    return reply.code(202).send({ submissionUid: accepted.length > 0 ? submissionUid : null, acceptedDocuments: accepted, rejectedDocuments: rejected });
  });
}
