import { router } from '../../trpc';
import { addAttachmentsProcedure } from './add-attachments';
import { createInvoiceProcedure } from './create-invoice';
import { getInvoiceProcedure } from './get-invoice';
import { listInvoicesProcedure } from './list-invoices';
import { updateInvoiceProcedure } from './update-invoice';

export const invoicesRouter = router({
  create: createInvoiceProcedure,
  get: getInvoiceProcedure,
  list: listInvoicesProcedure,
  addAttachments: addAttachmentsProcedure,
  update: updateInvoiceProcedure,
});
