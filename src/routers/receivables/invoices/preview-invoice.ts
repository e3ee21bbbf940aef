/**
 * receivables.invoices.preview (tRPC only): a draft's lines and totals priced by the server as create
 * would price them, with what create would refuse, and nothing written. The console's draft editor
 * asks it as the person types. Meta, schemas and one service call; no rule lives here.
 */
import { previewDocument } from '../../../services/receivables/preview-document';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';
import { documentPreviewSchema, previewInvoiceInput } from '../../../contract/receivables/documents';

export const previewInvoiceProcedure = readProcedure('receivables.invoice.create')
  .input(previewInvoiceInput)
  .output(documentPreviewSchema)
  .query(async ({ ctx, input }) => previewDocument(svc(ctx), input));
