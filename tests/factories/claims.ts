import { parseKey } from '../../src/lib/secret-box';
import type { Database } from '../../src/db/client';
import { findClaim } from '../../src/db/queries/claims';
import { findReferenceRateOn, insertExchangeRate } from '../../src/db/queries/exchange-rates';
import { Dec } from '../../src/lib/money';
import { findProjectAxis, listAnalyticAccounts } from '../../src/db/queries/reference-data';
import type { CLAIM_LINE_TYPES, DOCUMENT_BASES } from '../../src/db/schema';
import { uploadDocument } from '../../src/services/documents/upload-document';
import * as lines from '../../src/services/expenses/claim-lines';
import * as settlements from '../../src/services/expenses/claim-settlements';
import { SYSTEM_CREDENTIAL_ID } from '../../src/services/context';
import { createPayoutChannel } from '../../src/services/expenses/payout-channels';
import { createClaimGroup, createExpenseCategory, createMileageRate, createPerDiemRate } from './setup';
import { createAnalyticAccount, createAnalyticAxis, createTaxCode } from './setup';
import { TEST_PAYOUT_ENCRYPTION_KEY } from '../helpers/keys';
import { contextFor } from './context';

/** The key tests encrypt payout channels under: the test app's PAYOUT_ENCRYPTION_KEY. */
export const TEST_PAYOUT_KEY = parseKey(TEST_PAYOUT_ENCRYPTION_KEY)!;

let counter = 0;

export async function createTestPayoutChannel(db: Database, organizationId: string, memberId: string, opts: { active?: boolean; accountNumber?: string } = {}) {
  counter += 1;
  return createPayoutChannel(db, TEST_PAYOUT_KEY, {
    organizationId,
    memberId,
    channelKey: 'bank_transfer',
    name: `Savings ${counter}`,
    fields: { bank_name: 'Maybank', account_holder: 'Nur Aisyah Binti Ahmad', account_number: opts.accountNumber ?? '5140 1234 5678' },
    active: opts.active,
  });
}

/**
 * Reference data a claim line needs: categories, rates, and the shared reference data (the project
 * axis, an organization has at most one, reused when it exists; a department axis; a tax code).
 */
export async function createClaimReferenceData(db: Database, organizationId: string) {
  counter += 1;
  const meals = await createExpenseCategory(db, { organizationId, code: `MEAL-${counter}`, name: 'Meals' });
  const travel = await createExpenseCategory(db, { organizationId, code: `TRAVEL-${counter}`, name: 'Travel' });
  const advance = await createExpenseCategory(db, { organizationId, code: `ADV-${counter}`, name: 'Cash advance' });
  const projects =
    (await findProjectAxis(db, { organizationId })) ?? (await createAnalyticAxis(db, organizationId, { code: `PRJ-${counter}`, name: 'Projects', isProjectAxis: true }));
  const departments = await createAnalyticAxis(db, organizationId, { code: `DEPT-${counter}`, name: 'Departments' });
  // A reused project axis (receivables set-up made one) may hold these codes already: they are reused too.
  const existing = await listAnalyticAccounts(db, { organizationId, axisId: projects.id, includeInactive: false, limit: 1000 });
  const project = async (code: string, name: string) =>
    existing.find((a) => a.code === code) ?? (await createAnalyticAccount(db, organizationId, { axisId: projects.id, code, name }));
  const zeta = await project('P-ZETA', 'Zeta Tower');
  const alpha = await project('P-ALPHA', 'Alpha Bridge');
  const sales = await createAnalyticAccount(db, organizationId, { axisId: departments.id, code: 'D-SALES', name: 'Sales' });
  const serviceTax = await createTaxCode(db, organizationId, { code: `SV6-${counter}`, name: 'Service tax 6%', rate: '6', taxType: '02' });
  const mileage = await createMileageRate(db, {
    organizationId,
    name: 'Car mileage',
    currency: 'MYR',
    validFrom: '2020-01-01',
    bands: [
      { band: 'first_500_km', fromKm: '0', toKm: '500', ratePerKm: '0.8' },
      { band: 'beyond_500_km', fromKm: '500', ratePerKm: '0.5' },
    ],
  });
  const perDiem = await createPerDiemRate(db, {
    organizationId,
    name: 'Daily allowance',
    currency: 'MYR',
    validFrom: '2020-01-01',
    bands: [
      { band: 'domestic', amountPerDay: '80' },
      { band: 'overseas', amountPerDay: '150.5' },
    ],
  });
  const group = await createClaimGroup(db, { organizationId, name: `Group ${counter}` });
  return { meals, travel, advance, projects, departments, zeta, alpha, sales, serviceTax, mileage, perDiem, group };
}

/**
 * Uploads a document as the member, the service POST /v1/documents calls. The text is wrapped in a
 * minimal PDF, so the same text gives the same bytes and the same SHA-256.
 */
export async function uploadClaimDocument(db: Database, organizationId: string, memberId: string, text: string) {
  return uploadDocument(await contextFor(db, organizationId, memberId), {
    filename: 'receipt.pdf',
    declared_type: 'application/pdf',
    content: Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`),
  });
}

// Claim lines, decisions, sign-offs and settlements as the tests write them (people's operations not
// public yet): the services, acting as the member the step names, at `now`.

type LegacyShare = { analyticAccountId: string; percentage: string };

/**
 * Adds a line as `actorMemberId` (the claimant when absent) through the service
 * POST /v1/expenses/claims/{id}/lines calls, at the claim's current revision, and answers the new
 * line as the claim answer shows it. Shorthands the tests were written with: `fxRate` on a
 * foreign-currency receipt is the organization's reference rate on the expense date (made here when
 * that day has none; a differing rate already on that day becomes an override with a reason, as
 * does `fxRateSource: 'override'`); a receipt without `documentBasis` is a relaxation receipt.
 */
export async function addClaimLine(
  db: Database,
  q: {
    organizationId: string;
    claimId: string;
    now: Date;
    type: (typeof CLAIM_LINE_TYPES)[number];
    expenseDate: string;
    categoryId: string;
    description: string;
    currency?: string;
    amount?: string;
    fxRate?: string;
    fxRateSource?: 'reference' | 'override';
    bankChargedAmount?: string;
    quantity?: string;
    rateId?: string;
    band?: string;
    taxAmount?: string;
    taxCodeId?: string | null;
    supplierName?: string | null;
    supplierTin?: string | null;
    supplierCountry?: string | null;
    documentBasis?: (typeof DOCUMENT_BASES)[number];
    einvoiceUuid?: string | null;
    einvoiceValidatedAt?: Date | null;
    relaxationReason?: string | null;
    shares?: LegacyShare[];
    documentIds?: string[];
    actorMemberId?: string;
  },
) {
  const ctx = q.actorMemberId ? await contextFor(db, q.organizationId, q.actorMemberId, q.now) : await asClaimant(db, q.organizationId, q.claimId, q.now);
  const claim = await findClaim(db, { organizationId: q.organizationId, id: q.claimId });
  const fx = q.bankChargedAmount === undefined ? await legacyFxRate(db, ctx.org.baseCurrency, q) : {};
  const receiptBasis =
    q.type === 'receipt' && q.documentBasis === undefined
      ? { document_basis: 'relaxation_receipt' as const, relaxation_reason: q.relaxationReason ?? 'Receipt without an e-invoice' }
      : { document_basis: q.documentBasis, relaxation_reason: q.relaxationReason };
  const answer = await lines.addClaimLine(ctx, {
    id: q.claimId,
    expected_revision: claim?.revision ?? 1,
    type: q.type,
    expense_date: q.expenseDate,
    category_id: q.categoryId,
    description: q.description,
    currency: q.currency,
    amount: q.amount,
    ...fx,
    bank_charged_amount: q.bankChargedAmount,
    quantity: q.quantity,
    rate_id: q.rateId,
    band: q.band,
    tax_amount: q.taxAmount,
    tax_code_id: q.taxCodeId,
    supplier_name: q.supplierName,
    supplier_tin: q.supplierTin,
    supplier_country: q.supplierCountry,
    ...receiptBasis,
    einvoice_uuid: q.einvoiceUuid,
    einvoice_validated_at: q.einvoiceValidatedAt,
    shares: q.shares?.map((s) => ({ analytic_account_id: s.analyticAccountId, percentage: s.percentage })),
    documents: q.documentIds,
  });
  const line = answer.lines.at(-1);
  if (!line) throw new Error('the claim answer has no line');
  return line;
}

/** The fx fields of a test's `fxRate` shorthand (see addClaimLine). */
async function legacyFxRate(
  db: Database,
  base: string,
  q: { organizationId: string; currency?: string; fxRate?: string; fxRateSource?: 'reference' | 'override'; expenseDate: string },
): Promise<{ fx_rate?: string; fx_rate_reason?: string }> {
  if (q.fxRate === undefined || q.currency === undefined || q.currency === base) return q.fxRate === undefined ? {} : { fx_rate: q.fxRate };
  const override = { fx_rate: q.fxRate, fx_rate_reason: 'Rate the test agreed' };
  if (q.fxRateSource === 'override') return override;
  const onDay = await findReferenceRateOn(db, { organizationId: q.organizationId, currency: q.currency, day: q.expenseDate });
  if (onDay?.rateDate === q.expenseDate) return new Dec(onDay.rate).eq(q.fxRate) ? {} : override;
  await insertExchangeRate(db, { organizationId: q.organizationId, currency: q.currency, rateDate: q.expenseDate, rate: q.fxRate });
  return {};
}

/** Acting as the claim's claimant (no such claim: the service answers 404 before acting as anyone). */
async function asClaimant(db: Database, organizationId: string, claimId: string, now = new Date()) {
  const claim = await findClaim(db, { organizationId, id: claimId });
  return contextFor(db, organizationId, claim?.claimantMemberId ?? SYSTEM_CREDENTIAL_ID, now);
}

const revisionOf = async (db: Database, organizationId: string, claimId: string) => (await findClaim(db, { organizationId, id: claimId }))?.revision ?? 1;

export async function withdrawClaimLine(db: Database, q: { organizationId: string; claimId: string; lineId: string }) {
  return lines.withdrawClaimLine(await asClaimant(db, q.organizationId, q.claimId), {
    id: q.claimId,
    line_id: q.lineId,
    expected_revision: await revisionOf(db, q.organizationId, q.claimId),
  });
}

export async function detachLineDocument(db: Database, q: { organizationId: string; claimId: string; lineId: string; fileId: string; now: Date }) {
  return lines.detachLineDocument(await asClaimant(db, q.organizationId, q.claimId, q.now), { id: q.claimId, line_id: q.lineId, document_id: q.fileId });
}

export async function recordClaimSettlement(
  db: Database,
  q: { organizationId: string; claimId: string; channelId: string; settledBy: string; amount?: string; proofDocumentId?: string | null; now: Date },
) {
  return settlements.recordClaimSettlement(await contextFor(db, q.organizationId, q.settledBy, q.now), {
    id: q.claimId,
    channel_id: q.channelId,
    ...(q.amount !== undefined ? { amount: q.amount } : {}),
    ...(q.proofDocumentId !== undefined ? { proof_document_id: q.proofDocumentId } : {}),
  });
}
