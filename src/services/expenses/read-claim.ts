/**
 * Reading a claim: the whole answer of the contract's section 2.4, every field computed from stored
 * data (derived fields, possible duplicates, the claimant's unit, sign-offs, available transitions).
 * Read only; it never answers a claim the caller may not read (404, as for one that does not exist)
 * and never discloses the reference of such a claim as a duplicate.
 */
import {
  findClaimsSharingDocuments,
  findReadableClaim,
  latestDecisionsFrom,
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
import type { ClaimAnswer } from '../../contract/expenses/claims';
import { hasPermission, type Principal } from '../access/principal';
import type { ServiceContext } from '../context';
import { primaryUnitNameOn, primaryUnitNamesOn } from '../people/org-chart';
import { stateOf } from '../workflow/transitions';
import { actorWith, loadWorkflow } from '../workflow/workflows';
import { availableTransitions } from '../workflow/transitions';
import type { SignoffRow as EngineSignoffRow } from '../../db/queries/approval-engine';
import { claimFacts, claimFactsOf } from './claim-facts';
import { cachedEngineSetup, cachedWorkflow } from '../org-config-cache';
import { claimLineLoader, type ClaimLineLoader } from './claim-line-batch';
import { deriveClaim, possibleDuplicates, type DerivedClaimFields } from './derive-claim';
import type { WorkflowDefinition } from '../workflow/types';

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
  const claim = await findReadableClaim(ctx.db, { organizationId: ctx.org.id, id: input.id, reader: claimReader(ctx) });
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

type Semantic = ReturnType<typeof stateOf>['semantic'];

/** The claim's derived fields from its lines and their shares (project names from the shares' project accounts). */
function derivedOf(lineRows: Pick<LineRow, 'id' | 'lineNo' | 'withdrawn' | 'currency' | 'amount' | 'baseAmount' | 'categoryId' | 'supplierName'>[], sharesOf: (lineId: string) => ShareRow[], base: string) {
  const projectNames = new Map<string, string>();
  for (const l of lineRows) for (const s of sharesOf(l.id)) if (s.isProjectAxis) projectNames.set(s.analyticAccountId, s.accountName);
  return deriveClaim(
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
}

/**
 * Whether the claimant's unit is looked up on a day rather than the one frozen at the latest
 * submission: in draft, and for claims submitted before it was frozen.
 */
function unitLookedUp(claim: ClaimRow, semantic: Semantic): boolean {
  return semantic === 'draft' || (claim.claimantUnitName === null && claim.claimantPositionId === null);
}

/**
 * The day the claimant's unit is looked up on: today in draft, else the day (in the organization's
 * time zone) of the latest submission: the latest decision out of a draft state, else submitted_at.
 */
function unitDay(ctx: ServiceContext, claim: ClaimRow, semantic: Semantic, latestSubmission: Date | string | undefined): string {
  if (semantic === 'draft') return ctx.today;
  const when = latestSubmission ?? claim.submittedAt;
  return when ? todayIn(ctx.org.timeZone, when instanceof Date ? when : new Date(when)) : ctx.today;
}

/** The keys of the workflow's draft states (a decision out of one is a submission). */
const draftStates = (def: WorkflowDefinition) => def.states.filter((s) => s.semantic === 'draft').map((s) => s.key);

/** The answer's `claim` part from the row, its state's semantic, its derived fields and the claimant's unit. */
function claimPart(claim: ClaimRow, semantic: Semantic, derived: DerivedClaimFields, claimantUnitName: string | null): ClaimAnswer['claim'] {
  return {
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
  };
}

/**
 * The answer's `claim` part for a page of claims (the claim list), from a number of statements that
 * does not grow with the page: the workflow (unless given), the lines of every claim, their shares,
 * and, for claims whose claimant's unit is looked up, their latest submissions and the claimants'
 * primary assignments. Computed by the same functions as claimAnswer, so each item equals the `claim`
 * of that claim's answer. The claim part names no document, so neither documents nor possible
 * duplicates are read.
 */
export async function claimViews(
  ctx: ServiceContext,
  claims: readonly ClaimRow[],
  workflow?: WorkflowDefinition,
  loader: ClaimLineLoader = claimLineLoader(ctx),
): Promise<ClaimAnswer['claim'][]> {
  if (claims.length === 0) return [];
  const { db, org } = ctx;
  const organizationId = org.id;
  const def = workflow ?? (await loadWorkflow(db, organizationId, 'expense_claim'));
  const page = claims.map((claim) => ({ claim, semantic: stateOf(def, claim.state).semantic }));
  const lookUp = page.filter((p) => unitLookedUp(p.claim, p.semantic));
  // The lines and shares (none read again when the page's loader has them), the latest submissions
  // and the claimants' units, side by side.
  const [lines, submissions, unitOn] = await Promise.all([
    loader.load(claims.map((c) => c.id)),
    latestDecisionsFrom(db, {
      organizationId,
      claimIds: lookUp.filter((p) => p.semantic !== 'draft').map((p) => p.claim.id),
      fromStates: draftStates(def),
    }),
    primaryUnitNamesOn(db, { organizationId, memberIds: lookUp.map((p) => p.claim.claimantMemberId) }),
  ]);
  const latestSubmission = new Map(submissions.map((d) => [d.claimId, d.decidedAt]));

  return page.map(({ claim, semantic }) => {
    const unitName = unitLookedUp(claim, semantic) ? unitOn(claim.claimantMemberId, unitDay(ctx, claim, semantic, latestSubmission.get(claim.id))) : claim.claimantUnitName;
    const derived = derivedOf(lines.linesOf(claim.id), lines.sharesOf, org.baseCurrency);
    return claimPart(claim, semantic, derived, unitName);
  });
}

/** Builds the whole answer of one claim for the caller. */
export async function claimAnswer(ctx: ServiceContext, claim: ClaimRow): Promise<ClaimAnswer> {
  const { db, principal, org } = ctx;
  const organizationId = org.id;
  const def = await loadWorkflow(db, organizationId, 'expense_claim');
  const semantic = stateOf(def, claim.state).semantic;
  const base = org.baseCurrency;

  const lineRows = await listClaimLines(db, { organizationId, claimId: claim.id });
  const lineIds = lineRows.map((l) => l.id);
  const shares = await listLineShares(db, { organizationId, lineIds });
  const documents = await listActiveLineDocuments(db, { organizationId, lineIds });

  const sharesOf = (lineId: string) => shares.filter((s) => s.lineId === lineId);
  const derived = derivedOf(lineRows, sharesOf, base);

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

  // Frozen at the latest submission; in draft (and for claims submitted before it was frozen) looked
  // up on the day: today in draft, else the day of the latest submission.
  let claimantUnitName = claim.claimantUnitName;
  if (unitLookedUp(claim, semantic)) {
    const drafts = draftStates(def);
    const latest = [...decisionRows].reverse().find((d) => drafts.includes(d.fromState));
    const day = unitDay(ctx, claim, semantic, latest?.decidedAt);
    claimantUnitName = await primaryUnitNameOn(db, { organizationId, memberId: claim.claimantMemberId, day });
  }

  const signoffs = step.signoffs.map((s) => signoffView(s, step.eligible.get(s.id) ?? s.eligible));
  const available_transitions = availableTransitions(def, facts, actorWith(principal, step.activeMembers));

  return {
    claim: claimPart(claim, semantic, derived, claimantUnitName),
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
 * claim answer shows and what `scope=to_act` lists by (the approve descriptor's `signs`).
 */
export async function claimTransitions(ctx: ServiceContext, claim: ClaimRow): Promise<ClaimAnswer['available_transitions']> {
  return (await claimTransitionsOf(ctx, [claim]))[0]!;
}

/** claimTransitions of several claims (a page of `to_act`), in statements that do not grow with their number. */
export async function claimTransitionsOf(
  ctx: ServiceContext,
  claims: readonly ClaimRow[],
  workflow?: WorkflowDefinition,
  loader?: ClaimLineLoader,
): Promise<ClaimAnswer['available_transitions'][]> {
  if (claims.length === 0) return [];
  const def = workflow ?? (await cachedWorkflow(ctx, 'expense_claim'));
  // A read: the engine's set-up from the process cache under the organization's epoch.
  const facts = await claimFactsOf(ctx, claims, (key) => stateOf(def, key).semantic, loader, cachedEngineSetup(ctx));
  // The count of active members the engine read with the policy (the same count actorOf reads).
  const actor = actorWith(ctx.principal, facts[0]!.step.activeMembers);
  return facts.map((f) => availableTransitions(def, f.facts, actor));
}
