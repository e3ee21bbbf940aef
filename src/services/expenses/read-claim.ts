import type { Database } from '../../db/client';
import {
  findClaimsSharingDocuments,
  findReadableClaim,
  listActiveLineDocuments,
  listClaimDecisions,
  listClaimLines,
  listClaimSettlements,
  listClaimSignoffs,
  listLineShares,
  type ClaimReader,
  type ClaimRow,
} from '../../db/queries/claims';
import { findOrganization } from '../../db/queries/organizations';
import type { CLAIM_LINE_TYPES, DECISION_VIAS, DOCUMENT_BASES, FX_RATE_SOURCES, MaskedPayoutField, REIMBURSEMENT_BASES, SignoffGap } from '../../db/schema';
import { todayIn } from '../../lib/dates';
import { AppError } from '../../lib/errors';
import { formatAmount, formatRate } from '../../lib/money';
import { hasPermission, type Principal } from '../access/principal';
import { primaryUnitNameOn } from '../people/org-chart';
import { stateOf } from '../workflow/transitions';
import type { Semantic, TransitionDescriptor } from '../workflow/types';
import { loadWorkflow, transitionsFor } from '../workflow/workflows';
import { deriveClaim, possibleDuplicates, type DerivedClaimFields } from './derive-claim';

/** The claim answer of the contract's section 2.4, every field computed from stored data. */
export interface ClaimAnswer {
  claim: {
    id: string;
    reference: string;
    title: string;
    claimant_member_id: string;
    claimant_unit_name: string | null;
    group_id: string | null;
    payout_channel_id: string | null;
    currency: string;
    state: string;
    semantic: Semantic;
    revision: number;
    created_at: string;
    submitted_at: string | null;
  } & DerivedClaimFields;
  lines: ClaimLineView[];
  decisions: {
    actor_member_id: string;
    authority_member_id: string;
    decided_at: string;
    from: string;
    to: string;
    reason: string;
    via: (typeof DECISION_VIAS)[number];
  }[];
  settlements: {
    id: string;
    channel_id: string;
    channel_key: string;
    channel_name: string;
    amount: string;
    currency: string;
    settled_at: string;
    settled_by: string;
    proof_document_id: string | null;
    account_tail: string | null;
    fields: MaskedPayoutField[];
  }[];
  signoffs: SignoffView[];
  available_transitions: TransitionDescriptor[];
}

export interface ClaimLineView {
  id: string;
  line_no: number;
  type: (typeof CLAIM_LINE_TYPES)[number];
  withdrawn: boolean;
  expense_date: string;
  category_id: string;
  description: string;
  currency: string;
  amount: string;
  base_amount: string;
  fx_rate: string;
  fx_rate_source: (typeof FX_RATE_SOURCES)[number];
  reimbursement_basis: (typeof REIMBURSEMENT_BASES)[number];
  quantity: string;
  rate_id: string | null;
  band: string | null;
  tax_amount: string;
  tax_code_id: string | null;
  supplier_name: string | null;
  supplier_tin: string | null;
  document_basis: (typeof DOCUMENT_BASES)[number];
  einvoice_uuid: string | null;
  einvoice_validated_at: string | null;
  relaxation_reason: string | null;
  documents: string[];
  possible_duplicate: boolean;
  duplicate_claim_references: string[];
  shares: { analytic_account_id: string; percentage: string }[];
}

export interface SignoffView {
  account_code: string;
  account_name: string;
  amount: string;
  analytic_account_id: string;
  axis_id: string;
  currency: string;
  eligible: string[];
  gap?: SignoffGap;
  signed?: {
    id: string;
    actor_member_id: string;
    authority_member_id: string;
    axis_id: string;
    analytic_account_id: string;
    amount: string;
    decided_at: string;
    state: string;
    via: 'grant' | 'delegation' | 'escalation';
    approver_assignment_id: string | null;
  };
  state: string;
}

/**
 * The caller as a claim reader: approvers and payers read every claim of the organization; the rest
 * of the rule (claimant, eligible signer) is the query's claimReadableBy, used for the single read
 * and for the references of possible duplicates alike.
 */
function claimReader(principal: Principal): ClaimReader {
  return {
    memberId: principal.memberId,
    readsAll: hasPermission(principal, 'expenses.claim.approve') || hasPermission(principal, 'expenses.claim.pay'),
  };
}

/** Reads one claim the caller may read; any other answers 404, like a claim that does not exist. */
export async function getClaim(db: Database, principal: Principal, id: string, now: Date): Promise<ClaimAnswer> {
  const claim = await findReadableClaim(db, { organizationId: principal.organizationId, id, reader: claimReader(principal) });
  if (!claim) throw new AppError('not_found', { detail: 'No such claim in this organization' });
  return claimAnswer(db, principal, claim, now);
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** Builds the whole answer of one claim for the caller. */
export async function claimAnswer(db: Database, principal: Principal, claim: ClaimRow, now: Date): Promise<ClaimAnswer> {
  const organizationId = principal.organizationId;
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found');
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
    reader: claimReader(principal),
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

  const lines: ClaimLineView[] = lineRows.map((l) => ({
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
    documents: documents.filter((d) => d.lineId === l.id).map((d) => d.fileId),
    possible_duplicate: duplicates.get(l.lineNo)?.possible_duplicate ?? false,
    duplicate_claim_references: duplicates.get(l.lineNo)?.duplicate_claim_references ?? [],
    shares: sharesOf(l.id).map((s) => ({ analytic_account_id: s.analyticAccountId, percentage: formatRate(s.percentage) })),
  }));

  const decisionRows = await listClaimDecisions(db, { organizationId, claimId: claim.id });
  const settlementRows = await listClaimSettlements(db, { organizationId, claimId: claim.id });
  const signoffRows = await listClaimSignoffs(db, { organizationId, claimId: claim.id, state: claim.state });

  // The unit on the day of the latest submission (leaving a draft state), or today while in draft.
  const today = todayIn(org.timeZone, now);
  let unitDay = today;
  if (semantic !== 'draft') {
    const latest = [...decisionRows].reverse().find((d) => def.states.find((s) => s.key === d.fromState)?.semantic === 'draft');
    const when = latest?.decidedAt ?? claim.submittedAt;
    if (when) unitDay = todayIn(org.timeZone, when instanceof Date ? when : new Date(when));
  }
  const claimantUnitName = await primaryUnitNameOn(db, { organizationId, memberId: claim.claimantMemberId, day: unitDay });

  const signoffs: SignoffView[] = signoffRows.map((s) => {
    const amount = formatAmount(s.amount, s.currency);
    const view: SignoffView = {
      account_code: s.accountCode,
      account_name: s.accountName,
      amount,
      analytic_account_id: s.analyticAccountId,
      axis_id: s.axisId,
      currency: s.currency,
      eligible: s.eligible,
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
  });

  const available_transitions = await transitionsFor(db, principal, 'expense_claim', {
    state: claim.state,
    reporterMemberId: claim.claimantMemberId,
    stepComplete: signoffs.length > 0 && signoffs.every((s) => s.signed !== undefined),
  });

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
