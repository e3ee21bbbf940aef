/**
 * Reading a claim: the whole answer of the contract's section 2.4, every field computed from stored
 * data (derived fields, possible duplicates, the claimant's unit, sign-offs, available transitions).
 * Read only; it never answers a claim the caller may not read (404, as for one that does not exist)
 * and never discloses the reference of such a claim as a duplicate.
 */
import {
  findClaimsSharingDocuments,
  findReadableClaim,
  listActiveLineDocuments,
  listClaimDecisions,
  listClaimLines,
  listClaimSettlements,
  listLineShares,
  type ClaimReader,
  type ClaimRow,
} from '../../db/queries/claims';
import { todayIn } from '../../lib/dates';
import { AppError } from '../../lib/errors';
import { formatAmount, formatRate } from '../../lib/money';
import type { ClaimAnswer } from '../../routers/expenses/claims/schemas';
import { hasPermission, type Principal } from '../access/principal';
import type { ServiceContext } from '../context';
import { primaryUnitNameOn } from '../people/org-chart';
import { stateOf } from '../workflow/transitions';
import { actorOf, loadWorkflow } from '../workflow/workflows';
import { availableTransitions } from '../workflow/transitions';
import type { SignoffRow as EngineSignoffRow } from '../../db/queries/approval-engine';
import { claimFacts } from './claim-facts';
import { deriveClaim, possibleDuplicates } from './derive-claim';

export type { ClaimAnswer };

type ClaimLineView = ClaimAnswer['lines'][number];
type SignoffView = ClaimAnswer['signoffs'][number];

/**
 * The caller as a claim reader: approvers and payers read every claim of the organization; the rest
 * of the rule (claimant, eligible signer, delegate on the organization's today) is the query's
 * claimReadableBy, used for the single read, the list and the references of possible duplicates alike.
 */
export function claimReader(ctx: { principal: Principal; today: string }): ClaimReader {
  const { principal } = ctx;
  return {
    memberId: principal.memberId,
    readsAll: hasPermission(principal, 'expenses.claim.approve') || hasPermission(principal, 'expenses.claim.pay'),
    today: ctx.today,
  };
}

/** Reads one claim the caller may read; any other answers 404, like a claim that does not exist. */
export async function getClaim(ctx: ServiceContext, input: { id: string }): Promise<ClaimAnswer> {
  const claim = await findReadableClaim(ctx.db, { organizationId: ctx.principal.organizationId, id: input.id, reader: claimReader(ctx) });
  if (!claim) throw new AppError('not_found', { detail: 'No such claim in this organization' });
  return claimAnswer(ctx, claim);
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

type SignoffRow = EngineSignoffRow;
type LineRow = Awaited<ReturnType<typeof listClaimLines>>[number];
type ShareRow = Awaited<ReturnType<typeof listLineShares>>[number];

/** One sign-off as the contract's 2.4 sign-off entry answers it (signed when a signature exists). */
function signoffView(s: SignoffRow, eligible: string[]): SignoffView {
  const amount = formatAmount(s.amount, s.currency);
  const view: SignoffView = {
    account_code: s.accountCode,
    account_name: s.accountName,
    amount,
    analytic_account_id: s.analyticAccountId,
    axis_id: s.axisId,
    currency: s.currency,
    eligible,
    state: s.state,
  };
  if (s.gap) view.gap = s.gap;
  if (s.signatureId && s.signedActorMemberId && s.signedAt && s.signedVia) {
    view.signed = {
      id: s.signatureId,
      actor_member_id: s.signedActorMemberId,
      authority_member_id: s.signedAuthorityMemberId ?? s.signedActorMemberId,
      axis_id: s.axisId,
      analytic_account_id: s.analyticAccountId,
      amount,
      decided_at: iso(s.signedAt),
      state: s.state,
      via: s.signedVia,
      approver_assignment_id: s.approverAssignmentId,
    };
  }
  return view;
}

/** One line as the contract's 2.4 claim line answers it. */
function lineView(
  l: LineRow,
  base: string,
  of: { documents: string[]; shares: ShareRow[]; duplicate: { possible_duplicate: boolean; duplicate_claim_references: string[] } | undefined },
): ClaimLineView {
  return {
    id: l.id,
    line_no: l.lineNo,
    type: l.type,
    withdrawn: l.withdrawn,
    expense_date: l.expenseDate,
    category_id: l.categoryId,
    description: l.description,
    currency: l.currency,
    amount: formatAmount(l.amount, l.currency),
    base_amount: formatAmount(l.baseAmount, base),
    fx_rate: formatRate(l.fxRate),
    fx_rate_source: l.fxRateSource,
    reimbursement_basis: l.reimbursementBasis,
    quantity: formatRate(l.quantity),
    rate_id: l.rateId,
    band: l.band,
    tax_amount: formatAmount(l.taxAmount, l.currency),
    tax_code_id: l.taxCodeId,
    supplier_name: l.supplierName,
    supplier_tin: l.supplierTin,
    document_basis: l.documentBasis,
    einvoice_uuid: l.einvoiceUuid,
    einvoice_validated_at: l.einvoiceValidatedAt ? iso(l.einvoiceValidatedAt) : null,
    relaxation_reason: l.relaxationReason,
    documents: of.documents,
    possible_duplicate: of.duplicate?.possible_duplicate ?? false,
    duplicate_claim_references: of.duplicate?.duplicate_claim_references ?? [],
    shares: of.shares.map((s) => ({ analytic_account_id: s.analyticAccountId, percentage: formatRate(s.percentage) })),
  };
}

/** Builds the whole answer of one claim for the caller. */
export async function claimAnswer(ctx: ServiceContext, claim: ClaimRow): Promise<ClaimAnswer> {
  const { db, principal, org } = ctx;
  const organizationId = principal.organizationId;
  const def = await loadWorkflow(db, organizationId, 'expense_claim');
  const semantic = stateOf(def, claim.state).semantic;
  const base = org.baseCurrency;

  const lineRows = await listClaimLines(db, { organizationId, claimId: claim.id });
  const lineIds = lineRows.map((l) => l.id);
  const shares = await listLineShares(db, { organizationId, lineIds });
  const documents = await listActiveLineDocuments(db, { organizationId, lineIds });

  const sharesOf = (lineId: string) => shares.filter((s) => s.lineId === lineId);
  const projectNames = new Map(shares.filter((s) => s.isProjectAxis).map((s) => [s.analyticAccountId, s.accountName]));
  const derived = deriveClaim(
    lineRows.map((l) => ({
      line_no: l.lineNo,
      withdrawn: l.withdrawn,
      currency: l.currency,
      amount: l.amount,
      base_amount: l.baseAmount,
      category_id: l.categoryId,
      supplier_name: l.supplierName,
      shares: sharesOf(l.id).map((s) => ({ analytic_account_id: s.analyticAccountId, percentage: s.percentage })),
    })),
    { baseCurrency: base, projectNames },
  );

  const hashes = [...new Set(documents.map((d) => d.sha256))];
  const others = await findClaimsSharingDocuments(db, {
    organizationId,
    claimId: claim.id,
    sha256s: hashes,
    reader: claimReader(ctx),
  });
  const duplicates = possibleDuplicates(
    lineRows.map((l) => ({ line_no: l.lineNo, sha256s: documents.filter((d) => d.lineId === l.id).map((d) => d.sha256) })),
    others.map((o) => ({
      sha256: o.sha256,
      claim_id: o.claimId,
      claim_reference: o.reference,
      claim_state_semantic: def.states.find((s) => s.key === o.state)?.semantic ?? 'custom',
      claim_created_at: o.createdAt,
      line_active: Boolean(o.lineActive),
      caller_may_read: Boolean(o.mayRead),
    })),
    claim.id,
  );

  const lines = lineRows.map((l) =>
    lineView(l, base, {
      documents: documents.filter((d) => d.lineId === l.id).map((d) => d.fileId),
      shares: sharesOf(l.id),
      duplicate: duplicates.get(l.lineNo),
    }),
  );

  const decisionRows = await listClaimDecisions(db, { organizationId, claimId: claim.id });
  const settlementRows = await listClaimSettlements(db, { organizationId, claimId: claim.id });
  const { facts, step } = await claimFacts(ctx, claim, (key) => stateOf(def, key).semantic);

  // Frozen at the latest submission; in draft (and for claims submitted before it was frozen) as of
  // the day: today in draft, else the day of the latest submission.
  let claimantUnitName = claim.claimantUnitName;
  if (semantic === 'draft' || (claim.claimantUnitName === null && claim.claimantPositionId === null)) {
    let unitDay = ctx.today;
    if (semantic !== 'draft') {
      const latest = [...decisionRows].reverse().find((d) => def.states.find((s) => s.key === d.fromState)?.semantic === 'draft');
      const when = latest?.decidedAt ?? claim.submittedAt;
      if (when) unitDay = todayIn(org.timeZone, when instanceof Date ? when : new Date(when));
    }
    claimantUnitName = await primaryUnitNameOn(db, { organizationId, memberId: claim.claimantMemberId, day: unitDay });
  }

  const signoffs = step.signoffs.map((s) => signoffView(s, step.eligible.get(s.id) ?? s.eligible));
  const available_transitions = availableTransitions(def, facts, await actorOf(db, principal));

  return {
    claim: {
      id: claim.id,
      reference: claim.reference,
      title: claim.title,
      claimant_member_id: claim.claimantMemberId,
      claimant_unit_name: claimantUnitName,
      group_id: claim.groupId,
      payout_channel_id: claim.payoutChannelId,
      currency: claim.currency,
      state: claim.state,
      semantic,
      revision: claim.revision,
      ...derived,
      created_at: iso(claim.createdAt),
      submitted_at: claim.submittedAt ? iso(claim.submittedAt) : null,
    },
    lines,
    decisions: decisionRows.map((d) => ({
      actor_member_id: d.actorMemberId,
      authority_member_id: d.authorityMemberId,
      decided_at: iso(d.decidedAt),
      from: d.fromState,
      to: d.toState,
      reason: d.reason,
      via: d.via,
    })),
    settlements: settlementRows.map((s) => ({
      id: s.id,
      channel_id: s.channelId,
      channel_key: s.channelKey,
      channel_name: s.channelName,
      amount: formatAmount(s.amount, s.currency),
      currency: s.currency,
      settled_at: iso(s.settledAt),
      settled_by: s.settledBy,
      proof_document_id: s.proofDocumentId,
      account_tail: s.accountTail,
      fields: s.fieldsMasked,
    })),
    signoffs,
    available_transitions,
  };
}

/**
 * The claim's `available_transitions` for the caller, and nothing else of the answer: what the
 * claim answer shows and what `scope=to_act` lists by (the approve descriptor's `signs`). Pass the
 * current state's sign-offs when they are at hand.
 */
export async function claimTransitions(ctx: ServiceContext, claim: ClaimRow): Promise<ClaimAnswer['available_transitions']> {
  const def = await loadWorkflow(ctx.db, ctx.principal.organizationId, 'expense_claim');
  const { facts } = await claimFacts(ctx, claim, (key) => stateOf(def, key).semantic);
  return availableTransitions(def, facts, await actorOf(ctx.db, ctx.principal));
}
