/**
 * Claim lines backed by a supplier's e-invoice to the company (`document_basis: einvoice_company`,
 * docs/myinvois.md point 7): the organization is the receiver, so it may read the document at LHDN. The
 * check job asks LHDN for it and sets the line's `einvoice_validated_at` (LHDN's validation time)
 * only when the document is a valid invoice or debit note, received by this organization, from the
 * supplier the line names (when it names one), for at least the line's amount. It looks again once
 * the supplier's 72-hour cancellation window has closed: a document cancelled meanwhile no longer
 * backs the line. `einvoice_employee` documents cannot be read by the employer: never checked.
 * A changed answer bumps the claim's revision (its ETag changes with what it shows).
 */
import type { Database } from '../../db/client';
import { bumpClaimRevision } from '../../db/queries/claims';
import { findClaimLinesDueForCheck, findOrganizationsWithLineChecksDue, nextClaimLineCheckDue, updateClaimLineCheck, type ClaimLineRow } from '../../db/queries/claim-line-checks';
import { findOrganization } from '../../db/queries/organizations';
import { MyInvoisError, type DocumentDetails } from '../../integrations/myinvois/client';
import { insertJobNoLaterThan } from '../../db/queries/jobs';
import { RetryAfter } from '../../jobs/errors';
import { Dec } from '../../lib/money';
import type { ServiceContext } from '../context';
import { connectionFor, type MyinvoisDeps } from './connection';
import { CANCEL_WINDOW_MS } from './outbox';
import { findEinvoiceRow } from './settings';

export const CHECK_CLAIM_LINES_JOB = 'myinvois-check-claim-lines';
/** A document LHDN does not show yet (still in validation) is asked for again after this long… */
const NOT_FOUND_RETRY_MS = 3_600_000;
/** …until the line is this old. */
const NOT_FOUND_GIVE_UP_MS = 3 * 24 * 3_600_000;

/**
 * Whether a line as written needs a MyInvois check, and the job that runs it (in the line's
 * transaction). Answers the check columns to store with the line.
 */
export async function scheduleClaimLineCheck(
  ctx: ServiceContext,
  line: { documentBasis: string; einvoiceUuid: string | null },
  previousUuid?: string | null,
): Promise<{ einvoiceCheckDueAt?: Date | null; einvoiceCheckedAt?: null; einvoiceCheckDetail?: string | null }> {
  if (line.documentBasis === 'einvoice_employee' && line.einvoiceUuid) {
    return { einvoiceCheckDueAt: null, einvoiceCheckedAt: null, einvoiceCheckDetail: 'An e-invoice issued to the employee cannot be read by the employer at LHDN: not verified' };
  }
  if (line.documentBasis !== 'einvoice_company' || !line.einvoiceUuid) return { einvoiceCheckDueAt: null, einvoiceCheckedAt: null, einvoiceCheckDetail: null };
  if (previousUuid !== undefined && previousUuid === line.einvoiceUuid) return {};
  const organizationId = ctx.org.id;
  if (!(await findEinvoiceRow(ctx.db, organizationId))?.enabled) {
    return { einvoiceCheckDueAt: null, einvoiceCheckedAt: null, einvoiceCheckDetail: 'E-invoicing is off: the e-invoice is not checked at LHDN' };
  }
  await enqueueClaimLineChecks(ctx.db, organizationId, ctx.now);
  return { einvoiceCheckDueAt: ctx.now, einvoiceCheckedAt: null, einvoiceCheckDetail: null };
}

/** The organization's check job, to run now (a waiting one is brought forward). */
export async function enqueueClaimLineChecks(db: Database, organizationId: string, now: Date): Promise<void> {
  await insertJobNoLaterThan(db, { kind: CHECK_CLAIM_LINES_JOB, organizationId, payload: { organization_id: organizationId }, runAt: now, createdAt: now, dedupeKey: `${CHECK_CLAIM_LINES_JOB}:${organizationId}`, maxAttempts: 1000 });
}

type LineRow = ClaimLineRow;

/** What LHDN's answer says about the line: its validation time when it backs the line, and why. */
function verdict(line: LineRow, employerTin: string | null, doc: DocumentDetails) {
  const typeName = String(doc.typeName ?? '');
  if (doc.status === 'Cancelled') return { ok: false, detail: `The supplier cancelled the e-invoice at LHDN${doc.cancelDateTime ? ` on ${doc.cancelDateTime}` : ''}` };
  if (doc.status !== 'Valid') return { ok: false, detail: `The e-invoice is ${doc.status} at LHDN` };
  if (!['Invoice', 'Debit Note'].includes(typeName)) return { ok: false, detail: `The document is a ${typeName}, not an invoice or debit note` };
  if (employerTin && doc.receiverId !== employerTin) return { ok: false, detail: `The e-invoice's buyer is ${doc.receiverId}, not this organization (${employerTin})` };
  if (line.supplierTin && doc.issuerTin !== line.supplierTin) return { ok: false, detail: `The e-invoice's supplier is ${doc.issuerTin}, not the line's supplier (${line.supplierTin})` };
  const payable = new Dec(String(doc.totalPayableAmount ?? 0));
  if (new Dec(line.amount).gt(payable)) return { ok: false, detail: `The line's amount ${new Dec(line.amount).toFixed(2)} is more than the e-invoice's total payable ${payable.toFixed(2)}` };
  return { ok: true, detail: `Valid at LHDN: ${doc.issuerName ?? doc.issuerTin}, total payable ${payable.toFixed(2)}` };
}

/** Checks the organization's due lines at LHDN. Throws RetryAfter to be run again. */
export async function checkClaimLinesDue(db: Database, organizationId: string, now: Date, deps: MyinvoisDeps): Promise<{ checked: number; next?: Date }> {
  const conn = await connectionFor(db, organizationId, deps, now);
  if ('missing' in conn) throw new RetryAfter(600, `cannot reach MyInvois: ${conn.missing}`);
  const org = await findOrganization(db, { organizationId });
  const employerTin = org?.seller.tin ?? null;
  const due = await findClaimLinesDueForCheck(db, { organizationId, now, take: 50 });
  for (const line of due) {
    let set: Partial<LineRow>;
    try {
      const doc = await conn.client.getDocumentDetails(line.einvoiceUuid!);
      const v = verdict(line, employerTin, doc);
      const validatedAt = v.ok && doc.dateTimeValidated ? new Date(doc.dateTimeValidated) : null;
      const windowCloses = validatedAt ? validatedAt.getTime() + CANCEL_WINDOW_MS + 60_000 : 0;
      set = { einvoiceValidatedAt: validatedAt, einvoiceCheckedAt: now, einvoiceCheckDetail: v.detail, einvoiceCheckDueAt: validatedAt && windowCloses > now.getTime() ? new Date(windowCloses) : null };
    } catch (error) {
      if (!(error instanceof MyInvoisError) || error.status !== 404) throw error;
      // A receiver does not see a document still in validation (or one that is invalid).
      const young = now.getTime() - line.createdAt.getTime() < NOT_FOUND_GIVE_UP_MS;
      set = {
        einvoiceValidatedAt: null,
        einvoiceCheckedAt: now,
        einvoiceCheckDetail: 'LHDN shows no valid e-invoice with this UUID to this organization',
        einvoiceCheckDueAt: young ? new Date(now.getTime() + NOT_FOUND_RETRY_MS) : null,
      };
    }
    await db.transaction(async (tx) => {
      const changed = (line.einvoiceValidatedAt?.getTime() ?? null) !== (set.einvoiceValidatedAt?.getTime() ?? null);
      // Only if the line still names this document (the claimant may have changed it meanwhile).
      const updated = await updateClaimLineCheck(tx, { organizationId, id: line.id, einvoiceUuid: line.einvoiceUuid!, set });
      if (updated && changed) await bumpClaimRevision(tx, { organizationId, id: line.claimId });
    });
  }
  const next = await nextClaimLineCheckDue(db, { organizationId });
  return { checked: due.length, ...(next ? { next: new Date(Math.max(new Date(next).getTime(), now.getTime())) } : {}) };
}

/** The organizations with claim lines due for a check (the MyInvois sweep). */
export async function organizationsWithLineChecksDue(db: Database, now: Date): Promise<string[]> {
  return findOrganizationsWithLineChecksDue(db, { now });
}
