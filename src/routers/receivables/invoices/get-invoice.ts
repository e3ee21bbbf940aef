/** receivables.invoices.get, GET /v1/receivables/invoices/{id}: meta, schemas and one service call; no rule lives here. */
import { readDocument } from '../../../services/receivables/read-document';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { readProcedure } from '../../procedures';
import { idInput } from '../../../contract/fields';
import { documentSchema } from '../../../contract/receivables/documents';

export const getInvoiceProcedure = readProcedure('receivables.invoice.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/invoices/{id}',
      summary: 'Read a sales invoice, credit note or debit note',
      description:
        'Answers the document with its lines, allocations, outstanding balance, workflow state, available transitions and timeline; ' +
        'its revision in the ETag header. Permission: receivables.invoice.read.',
      tags: ['Receivables documents'],
      protect: true,
    },
  })
  .input(idInput)
  .output(documentSchema)
  .query(async ({ ctx, input }) => {
    const doc = await readDocument(svc(ctx), input);
    setEtag(ctx, doc.revision);
    return doc;
  });
