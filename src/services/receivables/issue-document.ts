import type { Database } from '../../db/client';
import { memberExists } from '../../db/queries/access';
import { findCustomer } from '../../db/queries/customers';
import { findOrganization } from '../../db/queries/organizations';
import { findDocumentLink, insertTimelineEntry, issuedCreditsAgainst, lockDocument, updateDocument } from '../../db/queries/receivable-documents';
import { nextSequenceValue } from '../../db/queries/sequences';
import type { DocumentKind, FrozenAddress, FrozenBuyer, FrozenSeller } from '../../db/schema';
import { countryAlpha2 } from '../../lib/code-lists';
import { addDays, todayIn } from '../../lib/dates';
import { AppError, validationError } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import { loadWorkflow } from '../workflow/workflows';

/**
 * Issuing is a person's decision and not a public operation (contract section 3). This service is
 * what the demo seed and tests use to bring documents into the issued state; the people's
 * operations will call it behind their own gate checks.
 */

const PREFIX: Record<DocumentKind, string> = { sales_invoice: 'INV', customer_credit_note: 'CN', customer_debit_note: 'DN' };

/**
 * Keeps the address lines that are set. country_code is always present and always ISO 3166-1
 * alpha-2 (DESIGN section 5): a stored alpha-3 code (the form written before) is converted here, so
 * buyer and seller of one document can never disagree on the format.
 */
function freezeAddress(address: Record<string, string | null | undefined>, countryCode: string | null | undefined): FrozenAddress {
  const out: FrozenAddress = { country_code: countryCode ? countryAlpha2(countryCode) : null };
  for (const key of ['line1', 'line2', 'city', 'postcode', 'state'] as const) {
    const v = address[key];
    if (typeof v === 'string') out[key] = v;
  }
  return out;
}

export interface IssueInput {
  organizationId: string;
  documentId: string;
  actorMemberId: string;
  now: Date;
  /** Recorded on the timeline; required for the sole-owner exception. */
  reason?: string;
  via?: 'grant' | 'sole_owner_exception';
}

/**
 * Takes the `issue` edge: the next number of the organization's per-kind, per-year sequence becomes
 * the reference, the invoice date becomes the day of issue (due date moved with it), and buyer and
 * seller are frozen as they read now.
 */
export async function issueDocument(db: Database, input: IssueInput) {
  const { organizationId, documentId, now } = input;
  // A credit note: the original invoice is locked first, as preparing a credit note and allocating
  // do (invoice before credit note), so credit notes of one invoice are issued one at a time.
  const link = await findDocumentLink(db, { organizationId, id: documentId });
  const original =
    link?.kind === 'customer_credit_note' && link.originalInvoiceId ? await lockDocument(db, { organizationId, id: link.originalInvoiceId }) : undefined;
  const doc = await lockDocument(db, { organizationId, id: documentId });
  if (!doc) throw new AppError('not_found');
  const def = await loadWorkflow(db, organizationId, 'receivable_document');
  const edge = def.transitions.find((t) => t.action_key === 'issue' && t.from === doc.state);
  if (!edge) throw new AppError('conflict', { detail: `A document in state ${doc.state} cannot be issued` });
  if (input.via === 'sole_owner_exception' && !input.reason?.trim()) {
    throw new AppError('sole_owner_reason_required', { detail: 'reason: required for the sole-owner exception', errors: [{ pointer: '/reason', detail: 'must not be blank' }] });
  }
  if (input.reason && input.reason.length > 500) throw validationError('/reason', 'must be at most 500 characters');
  if (original) {
    // Re-checked here: drafts prepared side by side each passed the cap against what was issued then.
    const left = new Dec(original.grossAmount).minus(await issuedCreditsAgainst(db, { organizationId, invoiceId: original.id }));
    if (new Dec(doc.grossAmount).gt(left)) {
      throw new AppError('conflict', {
        detail: `The credit note's gross ${formatAmount(doc.grossAmount, doc.currency)} is more than is left to credit on invoice ${original.reference} (${formatAmount(left, doc.currency)})`,
      });
    }
  }
  if (!(await memberExists(db, { organizationId, id: input.actorMemberId }))) throw validationError('/actor_member_id', 'no such member in this organization');

  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found');
  const today = todayIn(org.timeZone, now);
  const customer = await findCustomer(db, { organizationId, id: doc.customerId, today });
  if (!customer) throw new AppError('internal');

  const year = today.slice(0, 4);
  const n = await nextSequenceValue(db, { organizationId, name: `${doc.kind}:${year}` });
  const reference = `${PREFIX[doc.kind]}-${year}-${String(n).padStart(5, '0')}`;

  const buyer: FrozenBuyer = {
    name: customer.legalName,
    address: freezeAddress({ ...customer.address }, customer.countryCode),
    email: customer.email,
    phone: customer.phone,
    registration_no: customer.registrationNo,
    registration_type: customer.registrationType,
    sst_no: customer.sstRegistrationNo,
    tin: customer.tin,
  };
  const s = org.seller ?? {};
  const seller: FrozenSeller = {
    name: s.name ?? org.name,
    // Organizations are Malaysian (MyInvois suppliers): a seller address without a country is in MY,
    // as a customer without one is.
    address: freezeAddress({ ...(s.address ?? {}) }, s.address?.country_code || 'MY'),
    msic: s.msic ?? null,
    registration_no: s.registration_no ?? null,
    sst_no: s.sst_no ?? null,
    tin: s.tin ?? null,
  };

  await updateDocument(db, { organizationId, id: documentId }, {
    state: edge.to,
    reference,
    issuedAt: now,
    invoiceDate: today,
    dueOn: addDays(today, doc.paymentTermsDays),
    buyer,
    seller,
    revision: doc.revision + 1,
  });
  await insertTimelineEntry(db, {
    organizationId,
    documentId,
    actionKey: edge.action_key,
    actorMemberId: input.actorMemberId,
    decidedAt: now,
    fromState: doc.state,
    toState: edge.to,
    reason: input.reason ?? '',
    via: input.via ?? 'grant',
  });
  return { reference };
}
