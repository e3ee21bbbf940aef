/** receivables.invoices.einvoice, GET /v1/receivables/invoices/{id}/einvoice: the document's LHDN MyInvois status and preflight. */
import { z } from 'zod';
import { EINVOICE_STATUSES, readEinvoiceStatus } from '../../../services/einvoicing/document-status';
import { PREFLIGHT_CODES } from '../../../services/einvoicing/preflight';
import { svc } from '../../context';
import { readProcedure } from '../../procedures';
import { idInput } from '../../../contract/fields';

export const einvoiceStatusSchema = z
  .object({
    status: z.enum(EINVOICE_STATUSES),
    uuid: z.string().nullable().describe("LHDN's 26-character document UUID once accepted"),
    long_id: z.string().nullable(),
    validation_link: z.string().nullable().describe('{portal}/{uuid}/share/{long_id} once valid'),
    submitted_at: z.string().nullable(),
    validated_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    errors: z.array(z.object({ code: z.string(), detail: z.string(), pointer: z.string().nullable() })).describe("LHDN's validation errors of the last submission"),
    preflight: z
      .array(z.object({ pointer: z.string(), code: z.enum(PREFLIGHT_CODES), detail: z.string() }))
      .describe('Every reason LHDN would refuse the document now; issuing is refused with them when e-invoicing is on'),
    document: z.record(z.string(), z.unknown()).nullable().describe('The UBL 2.1 JSON document exactly as submitted'),
    last_error: z
      .string()
      .nullable()
      .describe("Why the e-invoice job this document waits on (submission, recovery, polling, cancellation) last failed, while it is retrying or dead (at most 500 characters); null when it is not failing"),
    attempts: z.number().int().describe("Attempts that job has made since it last ran to the end (10 and failing: it is dead, left for an operator)"),
    next_attempt_at: z.string().nullable().describe('When that job runs next; null when nothing is scheduled (done, running or dead)'),
  })
  .meta({ id: 'EinvoiceStatus' });

export const getEinvoiceProcedure = readProcedure('receivables.invoice.read')
  .meta({
    openapi: {
      method: 'GET',
      path: '/receivables/invoices/{id}/einvoice',
      summary: "Read a document's e-invoice status and preflight",
      description:
        "Answers the document's LHDN MyInvois status (not_submitted until submission exists), its preflight problems " +
        '({pointer, code, detail}) and, once submitted, the document as sent. Permission: receivables.invoice.read.',
      tags: ['Receivables documents'],
      protect: true,
    },
  })
  .input(idInput)
  .output(einvoiceStatusSchema)
  .query(async ({ ctx, input }) => readEinvoiceStatus(svc(ctx), input));
