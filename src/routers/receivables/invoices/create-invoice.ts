/** receivables.invoices.create, POST /v1/receivables/invoices: meta, schemas and one service call; no rule lives here. */
import { prepareDocument } from '../../../services/receivables/prepare-document';
import { svc } from '../../context';
import { setCreated, setEtag } from '../../http';
import { writeProcedure } from '../../procedures';
import { createInvoiceInput, documentSchema } from '../../../contract/receivables/documents';

export const createInvoiceProcedure = writeProcedure('receivables.invoice.create')
  .meta({
    openapi: {
      method: 'POST',
      path: '/receivables/invoices',
      summary: 'Prepare a sales invoice, credit note or debit note',
      description:
        'Prepares an unnumbered draft (reference, issued_at, buyer and seller null) and answers it with 201, Location and ETag. ' +
        'Refusals: 422 validation (receivables rules, with a pointer per field), 422 custom_field_invalid, 422 document_unknown, ' +
        '422 document_not_yours, 409 document_bound_elsewhere; a refusal leaves nothing behind. Permission: receivables.invoice.create.',
      tags: ['Receivables documents'],
      protect: true,
    },
    successStatus: 201,
  })
  .input(createInvoiceInput)
  .output(documentSchema)
  .mutation(async ({ ctx, input }) => {
    const doc = await prepareDocument(svc(ctx), input);
    setCreated(ctx, `/v1/receivables/invoices/${doc.id}`);
    setEtag(ctx, doc.revision);
    return doc;
  });
