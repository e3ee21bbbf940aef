/** receivables.invoices.addAttachments, POST /v1/receivables/invoices/{id}/attachments: meta, schemas and one service call; no rule lives here. */
import { addAttachments } from '../../../services/receivables/add-attachments';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { writeProcedure } from '../../procedures';
import { addAttachmentsInput, documentSchema } from '../../../contract/receivables/documents';

export const addAttachmentsProcedure = writeProcedure('receivables.invoice.create')
  .meta({
    openapi: {
      method: 'POST',
      path: '/receivables/invoices/{id}/attachments',
      summary: 'Attach uploaded documents to a receivables document',
      description:
        'Binds documents the caller uploaded (POST /documents) to the receivables document, after the ones already attached, and answers the document. ' +
        'A document backs at most one record (409 document_bound_elsewhere); 422 document_unknown, document_not_yours. Permission: receivables.invoice.create.',
      tags: ['Receivables documents'],
      protect: true,
    },
  })
  .input(addAttachmentsInput)
  .output(documentSchema)
  .mutation(async ({ ctx, input }) => {
    const doc = await addAttachments(svc(ctx), input);
    setEtag(ctx, doc.revision);
    return doc;
  });
