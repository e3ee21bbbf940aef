/**
 * A receivables document's e-invoice status (MYINVOIS.md point 8): its current e-invoice row (the
 * live one, else the last invalid one) as LHDN last answered, the errors LHDN gave, the preflight of
 * a draft, and the document exactly as it was sent.
 */
import { findCurrentEinvoice, type EinvoiceRow } from '../../db/queries/einvoices';
import { findDocumentRow } from '../../db/queries/receivable-documents';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import type { PreflightProblem } from './preflight';
import { documentPreflight } from './readiness';
import { einvoiceView, findEinvoiceRow } from './settings';
import { loadWorkflow } from '../workflow/workflows';
import { stateOf } from '../workflow/transitions';

export const EINVOICE_STATUSES = ['not_submitted', 'submitted', 'valid', 'invalid', 'cancelled', 'rejection_requested'] as const;

export interface EinvoiceStatus {
  status: (typeof EINVOICE_STATUSES)[number];
  uuid: string | null;
  long_id: string | null;
  validation_link: string | null;
  submitted_at: string | null;
  validated_at: string | null;
  cancelled_at: string | null;
  errors: { code: string; detail: string; pointer: string | null }[];
  preflight: PreflightProblem[];
  document: Record<string, unknown> | null;
}

/** The validation link LHDN's portal serves for a valid document: `{portal}/{uuid}/share/{longId}`. */
export function validationLink(portalBaseUrl: string, uuid: string, longId: string): string {
  return `${portalBaseUrl.replace(/\/+$/, '')}/${uuid}/share/${longId}`;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** How the contract names a row's state: LHDN's verdict, with a buyer's open rejection request shown. */
function statusOf(row: EinvoiceRow): EinvoiceStatus['status'] {
  switch (row.state) {
    case 'queued':
    case 'sending':
    case 'submitted':
      return 'submitted';
    case 'valid':
      return row.rejectionRequestedAt ? 'rejection_requested' : 'valid';
    default:
      return row.state;
  }
}

/** The e-invoice facts of one document (also what the PDF prints), from its current row. */
export function einvoiceFacts(row: EinvoiceRow | undefined, portalBaseUrl: string) {
  if (!row) return { status: 'not_submitted' as const, uuid: null, long_id: null, validation_link: null, submitted_at: null, validated_at: null, cancelled_at: null };
  const valid = row.state === 'valid' || row.state === 'cancelled';
  return {
    status: statusOf(row),
    uuid: row.uuid,
    long_id: row.longId,
    validation_link: valid && row.uuid && row.longId ? validationLink(portalBaseUrl, row.uuid, row.longId) : null,
    submitted_at: iso(row.submittedAt),
    validated_at: iso(row.validatedAt),
    cancelled_at: iso(row.cancelledAt),
  };
}

export async function readEinvoiceStatus(ctx: ServiceContext, input: { id: string }): Promise<EinvoiceStatus> {
  const organizationId = ctx.principal.organizationId;
  const doc = await findDocumentRow(ctx.db, { organizationId, id: input.id });
  if (!doc) throw new AppError('not_found', { detail: 'No such receivables document in this organization' });
  const [row, settings] = [await findCurrentEinvoice(ctx.db, { organizationId, documentId: doc.id }), einvoiceView(await findEinvoiceRow(ctx.db, organizationId))];
  const def = await loadWorkflow(ctx.db, organizationId, 'receivable_document');
  // Preflight is about what issuing would send: shown while the document is a draft.
  const draft = stateOf(def, doc.state).semantic === 'draft';
  return {
    ...einvoiceFacts(row, settings.portal_base_url),
    errors: [...(row?.errors ?? []), ...(row?.cancelErrors ?? [])],
    preflight: draft ? await documentPreflight(ctx, doc) : [],
    document: row?.document ? (JSON.parse(row.document) as Record<string, unknown>) : null,
  };
}
