/** POST /v1/receivables/receipts and `receivables.receipts.create`: meta, schemas and one service call. */
import { createReceipt } from '../../../services/receivables/receipts';
import { svc } from '../../context';
import { setCreated, setEtag } from '../../http';
import { writeProcedure } from '../../procedures';
import { createReceiptInput, receiptSchema } from '../../../contract/receivables/receipts';

export const createReceiptProcedure = writeProcedure('receivables.receipt.create')
  .meta({
    openapi: {
      method: 'POST',
      path: '/receivables/receipts',
      summary: "Record a customer's payment",
      description:
        'Records a receipt and answers it with 201, Location and ETag; `allocations` are allocated at once, in the same transaction, ' +
        "to the customer's issued invoices and debit notes of the receipt's currency. An allocation's base_amount is its amount at the " +
        "document's fx_rate; the difference from the receipt's rate is its exchange_difference. Never more than the receipt, or a document, " +
        'has left: 422 validation at /allocations/<i>/amount, and nothing is written. Permission: receivables.receipt.create.',
      tags: ['Receipts'],
      protect: true,
    },
    successStatus: 201,
  })
  .input(createReceiptInput)
  .output(receiptSchema)
  .mutation(async ({ ctx, input }) => {
    const receipt = await createReceipt(svc(ctx), input);
    setCreated(ctx, `/v1/receivables/receipts/${receipt.id}`);
    setEtag(ctx, receipt.revision);
    return receipt;
  });
