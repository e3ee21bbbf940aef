import { router } from '../../trpc';
import { addAttachmentsProcedure } from './add-attachments';
import { createInvoiceProcedure } from './create-invoice';
import { getInvoiceProcedure } from './get-invoice';

export const invoicesRouter = router({
  create: createInvoiceProcedure,
  get: getInvoiceProcedure,
  addAttachments: addAttachmentsProcedure,
});
