/** receivables.invoices.list, GET /v1/receivables/invoices: meta, schemas and one service call; no rule lives here. */
import { listDocuments } from '../../../services/receivables/list-documents';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';
import { documentListSchema, listInvoicesInput } from '../../../contract/receivables/document-list';

export const listInvoicesProcedure = readProcedure('receivables.invoice.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/invoices',
      summary: 'List sales invoices, credit notes and debit notes',
      description:
        'Newest created first by default. Keyset pagination: pass next_cursor back as cursor, with the same sort, order and filters ' +
        '(a cursor sent with others is 422 validation at /query/cursor; one that does not decode or verify is 400). ' +
        'Filters combine with AND. Items carry every document field but lines, allocations, timeline and available_transitions. ' +
        'Permission: receivables.invoice.read.',
      tags: ['Receivables documents'],
      protect: true,
    },
  })
  .input(listInvoicesInput)
  .output(documentListSchema)
  .query(({ ctx, input }) => listDocuments(svc(ctx), input));
