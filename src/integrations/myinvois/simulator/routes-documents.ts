/**
 * Reads: `GET /api/v1.0/documentsubmissions/{submissionUid}?pageNo&pageSize` (the submitter only,
 * pageSize ≤ 100), `GET /api/v1.0/documents/{uuid}/raw` (never an Invalid document) and
 * `GET /api/v1.0/documents/{uuid}/details` (with `validationResults`), under LHDN's visibility rules.
 */
import type { FastifyInstance } from 'fastify';
import { isoTime, type SimContext } from './context';
import { httpError, sendError } from './errors';
import { canRead, documentSummary } from './present';
import type { SimDocument } from './types';

function positiveInt(value: unknown, fallback: number): number | null {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

function overallStatus(docs: SimDocument[]): string {
  if (docs.some((doc) => doc.status === 'Submitted')) return 'InProgress';
  const valid = docs.filter((doc) => doc.status !== 'Invalid').length;
  if (valid === docs.length) return 'Valid';
  return valid === 0 ? 'Invalid' : 'PartiallyValid';
}

export function registerDocumentRoutes(app: FastifyInstance, ctx: SimContext): void {
  app.get<{ Params: { submissionUid: string }; Querystring: Record<string, string> }>(
    '/api/v1.0/documentsubmissions/:submissionUid',
    { config: { endpoint: 'submission', auth: true } },
    async (request, reply) => {
      const pageNo = positiveInt(request.query.pageNo, 1);
      const pageSize = positiveInt(request.query.pageSize, 100);
      if (pageNo === null) return sendError(reply, 400, httpError('BadArgument', 'pageNo must be a positive integer', 'pageNo'));
      if (pageSize === null || pageSize > 100) return sendError(reply, 400, httpError('BadArgument', 'pageSize must be an integer from 1 to 100', 'pageSize'));
      const submission = ctx.store.submissions.get(request.params.submissionUid);
      if (!submission) return sendError(reply, 404, httpError('NotFound', 'Submission not found', 'submissionUid'));
      if (submission.submitterTin !== request.caller!.tin) return sendError(reply, 403, httpError('Forbidden', 'Only the submitter may read this submission', 'submissionUid'));
      const docs = submission.documentUuids.map((uuid) => ctx.store.documents.get(uuid)!);
      const page = docs.slice((pageNo - 1) * pageSize, pageNo * pageSize);
      return reply.send({
        submissionUid: submission.submissionUid,
        documentCount: docs.length,
        dateTimeReceived: isoTime(submission.dateTimeReceived),
        overallStatus: overallStatus(docs),
        documentSummary: page.map(documentSummary),
      });
    },
  );

  app.get<{ Params: { uuid: string } }>('/api/v1.0/documents/:uuid/raw', { config: { endpoint: 'raw', auth: true } }, async (request, reply) => {
    const doc = ctx.store.documents.get(request.params.uuid);
    if (!doc || doc.status === 'Invalid' || !canRead(doc, request.caller!.tin)) {
      return sendError(reply, 404, httpError('NotFound', 'Document not found', 'uuid'));
    }
    return reply.send({ ...documentSummary(doc), document: doc.raw });
  });

  app.get<{ Params: { uuid: string } }>('/api/v1.0/documents/:uuid/details', { config: { endpoint: 'details', auth: true } }, async (request, reply) => {
    const doc = ctx.store.documents.get(request.params.uuid);
    if (!doc || !canRead(doc, request.caller!.tin)) return sendError(reply, 404, httpError('NotFound', 'Document not found', 'uuid'));
    return reply.send({
      ...documentSummary(doc),
      validationResults: { status: doc.status, validationSteps: doc.validationSteps },
    });
  });
}
