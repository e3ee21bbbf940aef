/**
 * The tRPC-only operations that spend money (docs/design.md §16): they append allocation rows under
 * row locks and take no If-Match (nothing is overwritten). Data entry: a session or an API key.
 */
import { allocateReceipt, applyCreditNote, reverseReceiptAllocation } from '../../../services/receivables/receipts';
import { svc } from '../../context';
import { setEtag } from '../../http';
import { writeProcedure } from '../../procedures';
import { documentSchema } from '../../../contract/receivables/documents';
import { allocateReceiptInput, applyCreditNoteInput, receiptSchema, reverseAllocationInput } from '../../../contract/receivables/receipts';

/** `receivables.receipts.allocate`: spends what is left of a receipt; answers the receipt. */
export const allocateReceiptProcedure = writeProcedure('receivables.receipt.create')
  .input(allocateReceiptInput)
  .output(receiptSchema)
  .mutation(async ({ ctx, input }) => {
    const receipt = await allocateReceipt(svc(ctx), input);
    setEtag(ctx, receipt.revision);
    return receipt;
  });

/** `receivables.receipts.applyCreditNote`: answers the invoice (or debit note) the credit note was applied to. */
export const applyCreditNoteProcedure = writeProcedure('receivables.receipt.create')
  .input(applyCreditNoteInput)
  .output(documentSchema)
  .mutation(async ({ ctx, input }) => {
    const doc = await applyCreditNote(svc(ctx), input);
    setEtag(ctx, doc.revision);
    return doc;
  });

/** `receivables.receipts.reverseAllocation`: answers the allocated document, both rows in its allocations. */
export const reverseAllocationProcedure = writeProcedure('receivables.receipt.create')
  .input(reverseAllocationInput)
  .output(documentSchema)
  .mutation(async ({ ctx, input }) => {
    const doc = await reverseReceiptAllocation(svc(ctx), input);
    setEtag(ctx, doc.revision);
    return doc;
  });
