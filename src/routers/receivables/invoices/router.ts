import { router } from '../../trpc';
import { addAttachmentsProcedure } from './add-attachments';
import { createInvoiceProcedure } from './create-invoice';
import { getEinvoiceProcedure } from './get-einvoice';
import { getInvoiceProcedure } from './get-invoice';
import { listInvoicesProcedure } from './list-invoices';
import { previewInvoiceProcedure } from './preview-invoice';
import { transitionInvoiceProcedure } from './transition-invoice';
import { updateInvoiceProcedure } from './update-invoice';

export const invoicesRouter = router({
  create: createInvoiceProcedure,
  get: getInvoiceProcedure,
  einvoice: getEinvoiceProcedure,
  list: listInvoicesProcedure,
  preview: previewInvoiceProcedure,
  addAttachments: addAttachmentsProcedure,
  transition: transitionInvoiceProcedure,
  update: updateInvoiceProcedure,
});
