/**
 * A receivables document's e-invoice status (MYINVOIS.md point 8). Until submission exists every
 * document is `not_submitted` with its preflight; the other fields are there so the shape only fills in.
 */
import { findDocumentRow } from '../../db/queries/receivable-documents';
import { AppError } from '../../lib/errors';
import type { ServiceContext } from '../context';
import type { PreflightProblem } from './preflight';
import { documentPreflight } from './readiness';

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

export async function readEinvoiceStatus(ctx: ServiceContext, input: { id: string }): Promise<EinvoiceStatus> {
  const doc = await findDocumentRow(ctx.db, { organizationId: ctx.principal.organizationId, id: input.id });
  if (!doc) throw new AppError('not_found', { detail: 'No such receivables document in this organization' });
  return {
    status: 'not_submitted',
    uuid: null,
    long_id: null,
    validation_link: null,
    submitted_at: null,
    validated_at: null,
    cancelled_at: null,
    errors: [],
    preflight: await documentPreflight(ctx, doc),
    document: null,
  };
}
