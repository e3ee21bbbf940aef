/**
 * The PDFs a customer receives, as fastify routes beside the generated ones (the REST adapter answers
 * JSON only, STACK-NOTES), each described in the OpenAPI document by hand (openapi.ts):
 * - GET /v1/receivables/invoices/{id}/pdf: an invoice, credit note or debit note;
 * - GET /v1/receivables/customers/{id}/statement/pdf: a customer statement (type, from, to as the
 *   JSON statement takes them);
 * - GET /v1/receivables/receipts/{id}/pdf: the official receipt for a receipt.
 * Each goes through the same pipeline as a read procedure: authentication and rate limits
 * (route-guard.ts), the permission receivables.invoice.read (receivables.receipt.read for a receipt; 403), the id checked as a UUID and the
 * query against its schema (400), and the service scoped to the caller's organization (404 for
 * another organization's record, as for one that does not exist).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { statementInput } from '../../../contract/receivables/statements';
import type { AppDeps } from '../../../deps';
import { AppError } from '../../../lib/errors';
import { inputError } from '../../../lib/zod-errors';
import { hasPermission } from '../../../services/access/principal';
import { serviceContext, type ServiceContext } from '../../../services/context';
import { documentPdf, type DocumentPdf } from '../../../services/receivables/document-pdf';
import { receiptPdf } from '../../../services/receivables/receipt-pdf';
import { statementPdf } from '../../../services/receivables/statement-pdf';
import { guardRouteAuthenticated } from '../../route-guard';

export const PDF_PATH = '/receivables/invoices/:id/pdf';
export const STATEMENT_PDF_PATH = '/receivables/customers/:id/statement/pdf';
export const RECEIPT_PDF_PATH = '/receivables/receipts/:id/pdf';
export const PDF_PERMISSION = 'receivables.invoice.read';
export const RECEIPT_PDF_PERMISSION = 'receivables.receipt.read';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `inline` (a browser shows it), with a filename safe in a quoted header value. */
function inlineDisposition(filename: string): string {
  return `inline; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
}

type Request = FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string> }>;

function registerPdfRoute(app: FastifyInstance, deps: AppDeps, path: string, permission: string, render: (ctx: ServiceContext, req: Request, id: string) => Promise<DocumentPdf>) {
  app.get<{ Params: { id: string }; Querystring: Record<string, string> }>(path, async (req, reply) => {
    const { principal, org } = await guardRouteAuthenticated(deps, req, reply);
    if (!hasPermission(principal, permission)) {
      throw new AppError('forbidden', { detail: `This operation needs the permission ${permission}` });
    }
    const id = req.params.id;
    if (!UUID.test(id)) {
      throw new AppError('invalid_request', { detail: 'id: must be a UUID', errors: [{ pointer: '/path/id', detail: 'must be a UUID' }] });
    }
    // Rendering is costly: a member has so many a minute (429 with Retry-After past them).
    await deps.rateLimits.countMemberAction('pdf_renders', principal.memberId);
    const ctx = serviceContext(deps.db, principal, org, deps.now(), deps.config.CURSOR_SECRET);
    const pdf = await render(ctx, req, id);
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

const statementQuery = statementInput.omit({ id: true });

function parsedStatementQuery(req: Request): z.output<typeof statementQuery> {
  const parsed = statementQuery.safeParse(req.query ?? {});
  if (!parsed.success) throw inputError(parsed.error, () => 'query', req.query);
  return parsed.data;
}

export async function registerInvoicePdfRoute(app: FastifyInstance, deps: AppDeps) {
  registerPdfRoute(app, deps, PDF_PATH, PDF_PERMISSION, (ctx, _req, id) => documentPdf(ctx, { id }));
  registerPdfRoute(app, deps, STATEMENT_PDF_PATH, PDF_PERMISSION, (ctx, req, id) => statementPdf(ctx, { ...parsedStatementQuery(req), id }));
  registerPdfRoute(app, deps, RECEIPT_PDF_PATH, RECEIPT_PDF_PERMISSION, (ctx, _req, id) => receiptPdf(ctx, { id }));
}
