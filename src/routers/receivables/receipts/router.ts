import { router } from '../../trpc';
import { allocateReceiptProcedure, applyCreditNoteProcedure, reverseAllocationProcedure } from './allocate-receipt';
import { createReceiptProcedure } from './create-receipt';
import { getReceiptProcedure } from './get-receipt';
import { listReceiptsProcedure } from './list-receipts';

export const receiptsRouter = router({
  get: getReceiptProcedure,
  list: listReceiptsProcedure,
  create: createReceiptProcedure,
  allocate: allocateReceiptProcedure,
  applyCreditNote: applyCreditNoteProcedure,
  reverseAllocation: reverseAllocationProcedure,
});
