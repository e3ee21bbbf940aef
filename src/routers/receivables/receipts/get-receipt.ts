import { getReceipt } from '../../../services/receivables/receipts';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { readProcedure } from '../../procedures';
import { idInput } from '../../../contract/fields';
import { receiptSchema } from '../../../contract/receivables/receipts';

/** GET /v1/receivables/receipts/{id} and `receivables.receipts.get`. */
export const getReceiptProcedure = readProcedure('receivables.receipt.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/receipts/{id}',
      summary: 'Read a receipt',
      description:
        'Answers the receipt with its allocations (reversals included) and its revision in the ETag header; the revision moves with every ' +
        'allocation or reversal of the receipt. Permission: receivables.receipt.read.',
      tags: ['Receipts'],
      protect: true,
    },
  })
  .input(idInput)
  .output(receiptSchema)
  .query(async ({ ctx, input }) => {
    const receipt = await getReceipt(svc(ctx), input);
    setEtag(ctx, receipt.revision);
    return receipt;
  });
