/**
 * GET /v1/receivables/invoices/{id}/pdf: the document as the PDF its customer receives. The REST
 * adapter answers JSON only (STACK-NOTES), so this is a fastify route beside the generated ones,
 * described in the OpenAPI document by hand (openapi.ts). It goes through the same pipeline as a
 * read procedure: authentication and rate limits (route-guard.ts), the permission
 * receivables.invoice.read (403), the id checked as a UUID (400), and the service scoped to the
 * caller's organization (404 for another organization's document, as for one that does not exist).
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps';
import { AppError } from '../../../lib/errors';
import { hasPermission } from '../../../services/access/principal';
import { serviceContext } from '../../../services/context';
import { documentPdf } from '../../../services/receivables/document-pdf';
import { guardRouteAuthenticated } from '../../route-guard';

export const PDF_PATH = '/receivables/invoices/:id/pdf';
export const PDF_PERMISSION = 'receivables.invoice.read';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `inline` (a browser shows it), with a filename safe in a quoted header value. */
function inlineDisposition(filename: string): string {
  return `inline; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
}

export async function registerInvoicePdfRoute(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Params: { id: string } }>(PDF_PATH, async (req, reply) => {
    const { principal, org } = await guardRouteAuthenticated(deps, req, reply);
    if (!hasPermission(principal, PDF_PERMISSION)) {
      throw new AppError('forbidden', { detail: `This operation needs the permission ${PDF_PERMISSION}` });
    }
    const id = req.params.id;
    if (!UUID.test(id)) {
      throw new AppError('invalid_request', { detail: 'id: must be a UUID', errors: [{ pointer: '/path/id', detail: 'must be a UUID' }] });
    }
    // Rendering is costly: a member has so many a minute (429 with Retry-After past them).
    await deps.rateLimits.countMemberAction('pdf_renders', principal.memberId);
    const ctx = serviceContext(deps.db, principal, org, deps.now(), deps.config.CURSOR_SECRET);
    const pdf = await documentPdf(ctx, { id });
    return reply
      .code(200)
      .headers({
        'content-type': 'application/pdf',
        'content-length': String(pdf.content.length),
        'content-disposition': inlineDisposition(pdf.filename),
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
      })
      .send(pdf.content);
  });
}
