/**
 * receivables.invoices.transition (tRPC only: a people's decision, session only): takes one exit of
 * the document's current state — issue, discard, dispute, resolve, cancel, as the organization's
 * workflow has them. Meta, schemas and one service call; who may take which edge is the workflow's
 * (authority is per edge, so the procedure names only receivables.invoice.read).
 */
import { z } from 'zod';
import { transitionDocument } from '../../../services/receivables/transition-document';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { decisionProcedure } from '../../procedures';
import { uuid } from '../../../contract/fields';
import { documentSchema } from '../../../contract/receivables/documents';

export const transitionInvoiceInput = z.strictObject({
  id: uuid().describe('The receivables document'),
  action_key: z.string().min(1).max(100).describe('One of the document’s available_transitions'),
  reason: z.string().max(500).optional().describe('Recorded on the timeline; required where the descriptor says requires_reason'),
});

export const transitionInvoiceProcedure = decisionProcedure('receivables.invoice.read')
  .input(transitionInvoiceInput)
  .output(documentSchema)
  .mutation(async ({ ctx, input }) => {
    const doc = await transitionDocument(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
    setEtag(ctx, doc.revision);
    return doc;
  });
