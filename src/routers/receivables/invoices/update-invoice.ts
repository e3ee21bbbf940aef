/** receivables.invoices.update, PATCH /v1/receivables/invoices/{id}: meta, schemas and one service call; no rule lives here. */
import { updateDraft } from '../../../services/receivables/update-draft';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { writeProcedure } from '../../procedures';
import { documentSchema, updateInvoiceInput } from '../../../contract/receivables/documents';

export const updateInvoiceProcedure = writeProcedure('receivables.invoice.create')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/receivables/invoices/{id}',
      summary: 'Change a draft receivables document',
      description:
        'Changes the fields sent (any create field but kind and attachment_ids, which are 400); fields left out stay as they are. ' +
        '`lines` replaces the lines whole, checked and priced again with the create rules; the units they take from trade lines are released and taken again. ' +
        'The lines are also priced again when customer_id, currency, fx_rate or original_invoice_id changes. custom_fields is replaced whole. ' +
        'Only a draft changes: any other state is 409 conflict. Send If-Match with the revision the ETag gave: missing is 428 revision_required, ' +
        'stale is 409 revision_mismatch. Answers the document with its new revision in the ETag. Permission: receivables.invoice.create.',
      tags: ['Receivables documents'],
      protect: true,
    },
    requiresRevision: true,
  })
  .input(updateInvoiceInput)
  .output(documentSchema)
  .mutation(async ({ ctx, input }) => {
    const doc = await updateDraft(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, doc.revision);
    return doc;
  });
