import { listReceipts } from '../../../services/receivables/receipts';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';
import { listReceiptsInput, receiptListSchema } from '../../../contract/receivables/receipts';

/** GET /v1/receivables/receipts and `receivables.receipts.list`: a keyset page with a signed cursor. */
export const listReceiptsProcedure = readProcedure('receivables.receipt.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/receipts',
      summary: 'List receipts',
      description:
        'Newest received first by default. Keyset pagination: pass next_cursor back as cursor, with the same sort, order and filters ' +
        '(a cursor sent with others is 422 validation at /query/cursor; one that does not decode or verify is 400). ' +
        'Filters combine with AND. Permission: receivables.receipt.read.',
      tags: ['Receipts'],
      protect: true,
    },
  })
  .input(listReceiptsInput)
  .output(receiptListSchema)
  .query(({ ctx, input }) => listReceipts(svc(ctx), input));
