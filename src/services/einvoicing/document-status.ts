/**
 * A receivables document's e-invoice status (docs/myinvois.md point 8): its current e-invoice row (the
 * live one, else the last invalid one) as LHDN last answered, the errors LHDN gave, the preflight of
 * a draft, the document exactly as it was sent, and how the e-invoice job it waits on is faring.
 */
import { findCurrentEinvoice, type EinvoiceRow } from '../../db/queries/einvoices';
import { findOrganizationJob } from '../../db/queries/jobs';
import { findDocumentRow } from '../../db/queries/receivable-documents';
import { MYINVOIS_JOBS } from './outbox';
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
  last_error: string | null;
  attempts: number;
  next_attempt_at: string | null;
}

/** The e-invoice job a row waits on, by its state (src/jobs/myinvois.ts). */
function jobKindsOf(row: EinvoiceRow | undefined): string[] {
  if (!row) return [];
  if (row.state === 'queued') return [MYINVOIS_JOBS.submit];
  if (row.state === 'sending') return [MYINVOIS_JOBS.submit, MYINVOIS_JOBS.recover];
  if (row.state === 'submitted') return [MYINVOIS_JOBS.poll];
  if (row.state === 'valid' && row.cancelRequestedAt) return [MYINVOIS_JOBS.cancel];
  if (row.state === 'valid' && row.nextPollAt) return [MYINVOIS_JOBS.poll];
  return [];
}

export const LAST_ERROR_SHOWN = 500;

/**
 * How the document's e-invoice job is faring: its last error while it is retrying or dead (the
 * runner's description: LHDN's error fields, never an answer's body), its attempts, and when it
 * runs next (null when nothing is scheduled).
 */
async function jobFacts(ctx: ServiceContext, row: EinvoiceRow | undefined): Promise<Pick<EinvoiceStatus, 'last_error' | 'attempts' | 'next_attempt_at'>> {
  // One job per kind (its pending one, else its latest); of a sending row's two, the failing one.
  const candidates = [];
  for (const kind of jobKindsOf(row)) candidates.push(await findOrganizationJob(ctx.db, { organizationId: ctx.org.id, kinds: [kind] }));
  const job = candidates.find((j) => j?.state === 'failed' || j?.state === 'dead') ?? candidates.find((j) => j && j.state !== 'done');
  if (!job) return { last_error: null, attempts: 0, next_attempt_at: null };
  const failing = job.state === 'failed' || job.state === 'dead' || (job.state === 'running' && job.attempts > 1);
  return {
    last_error: failing && job.lastError ? job.lastError.slice(0, LAST_ERROR_SHOWN) : null,
    attempts: job.attempts,
    next_attempt_at: job.state === 'queued' || job.state === 'failed' ? job.runAt.toISOString() : null,
  };
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
  const organizationId = ctx.org.id;
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
    ...(await jobFacts(ctx, row)),
  };
}
