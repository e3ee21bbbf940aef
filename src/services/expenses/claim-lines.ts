/**
 * Writing claim lines (docs/design.md §17): adding, changing and withdrawing a line of a draft claim,
 * by its claimant (API key or session: data entry, not a decision), with If-Match. Each write bumps
 * the claim's revision once and answers the whole claim (contract 2.4). The rules of a line live in
 * claim-line-rules.ts and its amounts in claim-line-amounts.ts, the same for adding and changing; a
 * line is never deleted (withdrawn lines stay, outside the total).
 */
import {
  bumpClaimRevision,
  deleteLineShares,
  detachLineDocumentRow,
  findClaimLine,
  findReadableClaim,
  insertClaimLine,
  insertLineShares,
  listActiveLineDocuments,
  listLineShares,
  lockClaim,
  nextClaimLineNo,
  reattachLineDocuments,
  updateClaimLineRow,
  withdrawClaimLineRow,
  type ClaimLineRow,
} from '../../db/queries/claims';
import { CLAIM_LINES_MAX } from '../../domain/line-limits';
import { refuse } from '../../lib/refusals';
import { AppError } from '../../lib/errors';
import { Dec, formatAmount, formatRate } from '../../lib/money';
import { scheduleClaimLineCheck } from '../einvoicing/claim-line-checks';
import type { ServiceContext } from '../context';
import { bindDocuments } from '../documents/bind-documents';
import { checkRevision } from '../revision';
import { stateOf } from '../workflow/transitions';
import { loadWorkflow } from '../workflow/workflows';
import { checkClaimLine, type CheckedLine, type ClaimLineField, type ClaimLineFields } from './claim-line-rules';
import { getClaim, claimReader, type ClaimAnswer } from './read-claim';

export interface AddClaimLineInput extends ClaimLineFields {
  /** The claim. */
  id: string;
  /** The revision If-Match named. */
  expected_revision: number;
  /** When MyInvois validated einvoice_uuid (set by the e-invoice check, never by a caller of the API). */
  einvoice_validated_at?: Date | null;
}

/** A change: any field but `type`; fields left out keep their value, null clears an optional one. */
export type UpdateClaimLineInput = Partial<Omit<ClaimLineFields, 'type'>> & { id: string; line_id: string; expected_revision: number };

export interface WithdrawClaimLineInput {
  id: string;
  line_id: string;
  expected_revision: number;
}

const FIELDS: ClaimLineField[] = [
  'type', 'expense_date', 'category_id', 'description', 'currency', 'amount', 'fx_rate', 'fx_rate_reason', 'bank_charged_amount', 'quantity', 'rate_id',
  'band', 'tax_amount', 'tax_code_id', 'supplier_name', 'supplier_tin', 'supplier_country', 'document_basis', 'einvoice_uuid', 'relaxation_reason',
  'shares', 'documents',
];

/** The fields the caller sent with a value (null is the same as absent). */
const sentOf = (o: Partial<ClaimLineFields>) => new Set(FIELDS.filter((k) => o[k] != null));

const noSuchLine = () => new AppError('not_found', { detail: 'No such line on this claim' });

/**
 * The claim locked for a line write, with its workflow: a claim the caller may not read is 404 (as
 * one that does not exist); one they read but did not file is 403; then the revision (409
 * revision_mismatch) and the state (only a draft's lines change: 409 conflict).
 */
async function draftClaimOfCaller(ctx: ServiceContext, id: string, expectedRevision?: number) {
  const organizationId = ctx.org.id;
  const claim = await lockClaim(ctx.db, { organizationId, id });
  if (!claim) throw new AppError('not_found', { detail: 'No such claim in this organization' });
  if (claim.claimantMemberId !== ctx.principal.memberId) {
    if (!(await findReadableClaim(ctx.db, { organizationId, id, reader: claimReader(ctx) }))) {
      throw new AppError('not_found', { detail: 'No such claim in this organization' });
    }
    throw new AppError('forbidden', { detail: "Only the claimant adds, changes or withdraws a claim's lines" });
  }
  if (expectedRevision !== undefined) checkRevision(claim.revision, expectedRevision);
  const def = await loadWorkflow(ctx.db, organizationId, 'expense_claim');
  if (stateOf(def, claim.state).semantic !== 'draft') {
    throw new AppError('conflict', { detail: `Lines can only change while the claim is a draft; it is ${claim.state}` });
  }
  const excludedStates = def.states.filter((s) => s.semantic === 'rejected' || s.semantic === 'cancelled').map((s) => s.key);
  return { claim, excludedStates };
}

/** The columns of a checked line (what add and change write alike). */
function lineColumns(c: CheckedLine) {
  const { shares: _shares, ...columns } = c;
  return columns;
}

async function writeShares(ctx: ServiceContext, lineId: string, c: CheckedLine) {
  const shares = c.shares.map((s) => ({ analyticAccountId: s.analyticAccountId, percentage: s.percentage }));
  await insertLineShares(ctx.db, { organizationId: ctx.org.id, lineId, shares });
}

/** Adds a line at the end of a draft claim; every rule is checked before the write, refused together in one 422. */
export async function addClaimLine(ctx: ServiceContext, input: AddClaimLineInput): Promise<ClaimAnswer> {
  const organizationId = ctx.org.id;
  const { claim, excludedStates } = await draftClaimOfCaller(ctx, input.id, input.expected_revision);
  const { id: _id, expected_revision: _rev, einvoice_validated_at, ...fields } = input;
  const lineNo = await nextClaimLineNo(ctx.db, { organizationId, claimId: claim.id });
  // Withdrawn lines count: they stay on the claim and are read with it.
  if (lineNo > CLAIM_LINES_MAX) refuse('', `lines: a claim holds at most ${CLAIM_LINES_MAX} lines (withdrawn ones included); file the rest in another claim`);
  const checked = await checkClaimLine(ctx, fields, sentOf(fields), { claimantMemberId: claim.claimantMemberId, excludedStates });
  const line = await insertClaimLine(ctx.db, {
    organizationId,
    claimId: claim.id,
    lineNo,
    type: fields.type,
    ...lineColumns(checked),
    einvoiceValidatedAt: checked.einvoiceUuid ? (einvoice_validated_at ?? null) : null,
    // An e-invoice to the company is checked at LHDN by a job (docs/myinvois.md point 7).
    ...(einvoice_validated_at ? {} : await scheduleClaimLineCheck(ctx, checked)),
  });
  await writeShares(ctx, line.id, checked);
  if (fields.documents?.length) {
    await bindDocuments(ctx, { record_type: 'expense_claim_line', record_id: line.id, ids: fields.documents, pointer: '/documents' });
  }
  await bumpClaimRevision(ctx.db, { organizationId, id: claim.id });
  return getClaim(ctx, { id: claim.id });
}

/** The stored line as the fields a change starts from (what the claimant chose, not what was computed). */
function storedFields(line: ClaimLineRow, shares: { analyticAccountId: string; percentage: string }[], base: string): ClaimLineFields {
  const receipt = line.type === 'receipt';
  const rated = line.type === 'mileage' || line.type === 'per_diem';
  const override = line.fxRateSource === 'override';
  return {
    type: line.type,
    expense_date: line.expenseDate,
    category_id: line.categoryId,
    description: line.description,
    currency: receipt ? line.currency : null,
    amount: receipt ? formatAmount(line.amount, line.currency) : line.type === 'advance_offset' ? formatAmount(new Dec(line.amount).neg(), base) : null,
    fx_rate: override ? formatRate(line.fxRate) : null,
    fx_rate_reason: override ? line.fxRateReason : null,
    bank_charged_amount: line.fxRateSource === 'bank_statement' ? formatAmount(line.baseAmount, base) : null,
    quantity: rated ? formatRate(line.quantity) : null,
    rate_id: rated ? line.rateId : null,
    band: line.type === 'per_diem' ? line.band : null,
    tax_amount: receipt ? formatAmount(line.taxAmount, line.currency) : null,
    tax_code_id: line.taxCodeId,
    supplier_name: line.supplierName,
    supplier_tin: line.supplierTin,
    supplier_country: line.supplierCountry,
    document_basis: line.documentBasis,
    einvoice_uuid: line.einvoiceUuid,
    relaxation_reason: line.relaxationReason,
    shares: shares.map((s) => ({ analytic_account_id: s.analyticAccountId, percentage: formatRate(s.percentage) })),
  };
}

/**
 * The change laid over the stored line. What the stored line computed from fields the change
 * replaces is not carried over: the SST worked out from a tax code when the amount, currency or code
 * changes; the rate choice (override or bank-charged) when the change makes the other one or moves
 * to another currency.
 */
function mergeChange(stored: ClaimLineFields, change: Partial<ClaimLineFields>): ClaimLineFields {
  const merged = { ...stored } as Record<string, unknown>;
  for (const k of FIELDS) if (k in change && change[k] !== undefined) merged[k] = change[k];
  const m = merged as unknown as ClaimLineFields;
  const changes = (k: ClaimLineField) => change[k] !== undefined;
  if (!changes('tax_amount') && m.tax_code_id != null && (changes('amount') || changes('currency') || changes('tax_code_id'))) m.tax_amount = null;
  const currencyMoved = changes('currency') && change.currency !== stored.currency;
  if (!changes('bank_charged_amount') && (changes('fx_rate') || currencyMoved)) m.bank_charged_amount = null;
  if (!changes('fx_rate') && (changes('bank_charged_amount') || currencyMoved)) m.fx_rate = null;
  if (!changes('fx_rate_reason') && m.fx_rate == null) m.fx_rate_reason = null;
  return m;
}

/** Changes a line of a draft claim; the line is checked and priced again with the add rules. */
export async function updateClaimLine(ctx: ServiceContext, input: UpdateClaimLineInput): Promise<ClaimAnswer> {
  const organizationId = ctx.org.id;
  const { claim, excludedStates } = await draftClaimOfCaller(ctx, input.id, input.expected_revision);
  const line = await findClaimLine(ctx.db, { organizationId, claimId: claim.id, lineId: input.line_id });
  if (!line) throw noSuchLine();
  if (line.withdrawn) throw new AppError('conflict', { detail: 'The line is withdrawn; a withdrawn line no longer changes' });

  const { id: _id, line_id: _lineId, expected_revision: _rev, ...change } = input;
  const storedShares = await listLineShares(ctx.db, { organizationId, lineIds: [line.id] });
  const merged = mergeChange(storedFields(line, storedShares, ctx.org.baseCurrency), change);
  const checked = await checkClaimLine(ctx, merged, sentOf(change), { claimantMemberId: claim.claimantMemberId, excludedStates, lineId: line.id });

  await updateClaimLineRow(ctx.db, {
    organizationId,
    lineId: line.id,
    set: {
      ...lineColumns(checked),
      ...(checked.documentBasis === line.documentBasis ? {} : { einvoiceValidatedAt: null }),
      ...(checked.einvoiceUuid === line.einvoiceUuid ? {} : { einvoiceValidatedAt: null }),
      ...(await scheduleClaimLineCheck(ctx, checked, checked.documentBasis === line.documentBasis ? line.einvoiceUuid : undefined)),
    },
  });
  if (change.shares !== undefined) {
    await deleteLineShares(ctx.db, { organizationId, lineId: line.id });
    await writeShares(ctx, line.id, checked);
  }
  if (change.documents != null) await replaceLineDocuments(ctx, line.id, change.documents);
  await bumpClaimRevision(ctx.db, { organizationId, id: claim.id });
  return getClaim(ctx, { id: claim.id });
}

/**
 * The sent documents become the line's supporting documents: new ones are bound (the shared binding
 * rules), dropped ones detached (kept in history, as detachLineDocument does), and one detached
 * from this very line earlier supports it again.
 */
async function replaceLineDocuments(ctx: ServiceContext, lineId: string, ids: string[]) {
  const organizationId = ctx.org.id;
  const current = await listActiveLineDocuments(ctx.db, { organizationId, lineIds: [lineId] });
  for (const d of current) {
    if (!ids.includes(d.fileId)) await detachLineDocumentRow(ctx.db, { organizationId, lineId, fileId: d.fileId, now: ctx.now });
  }
  await bindDocuments(ctx, { record_type: 'expense_claim_line', record_id: lineId, ids, pointer: '/documents' });
  await reattachLineDocuments(ctx.db, { organizationId, lineId, fileIds: ids });
}

/** Withdraws a line: it stays on the claim, marked withdrawn, and no longer counts toward the total. */
export async function withdrawClaimLine(ctx: ServiceContext, input: WithdrawClaimLineInput): Promise<ClaimAnswer> {
  const organizationId = ctx.org.id;
  const { claim } = await draftClaimOfCaller(ctx, input.id, input.expected_revision);
  const line = await findClaimLine(ctx.db, { organizationId, claimId: claim.id, lineId: input.line_id });
  if (!line) throw noSuchLine();
  if (line.withdrawn) throw new AppError('conflict', { detail: 'The line is already withdrawn' });
  await withdrawClaimLineRow(ctx.db, { organizationId, claimId: claim.id, lineId: line.id });
  await bumpClaimRevision(ctx.db, { organizationId, id: claim.id });
  return getClaim(ctx, { id: claim.id });
}

/**
 * A document stops supporting a line: it stays bound to the line (it can back no other record) and
 * is kept in history, but leaves the line's documents and the duplicate signal. (Over the API the
 * claimant does this by sending the line's documents without it.)
 */
export async function detachLineDocument(ctx: ServiceContext, input: { id: string; line_id: string; document_id: string }) {
  const organizationId = ctx.org.id;
  const { claim } = await draftClaimOfCaller(ctx, input.id);
  const line = await findClaimLine(ctx.db, { organizationId, claimId: claim.id, lineId: input.line_id });
  if (!line) throw noSuchLine();
  if (!(await detachLineDocumentRow(ctx.db, { organizationId, lineId: line.id, fileId: input.document_id, now: ctx.now }))) {
    throw new AppError('not_found', { detail: 'The document does not support this line' });
  }
  await bumpClaimRevision(ctx.db, { organizationId, id: claim.id });
}
