/**
 * The console's To do (me.todo): how many things wait for the caller, as counts (never lists), each
 * bounded by TO_DO_CAP. Whether the caller may act on a claim is the claim's own descriptor (the same
 * `available_transitions` the claim answer carries), so the counts and the screens they lead to agree.
 * A count the caller's permissions do not cover is null (the console shows no tile for it).
 */
import { listClaimRows, type ClaimListQuery } from '../db/queries/claim-list';
import { countDraftDocuments, countEinvoicesNeedingAttention, countOverdueDocuments, countReturnedClaims } from '../db/queries/todo';
import { Dec, formatAmount } from '../lib/money';
import { hasPermission } from './access/principal';
import type { ServiceContext } from './context';
import { approveSigns } from './expenses/list-claims';
import { claimReader, claimTransitions } from './expenses/read-claim';
import { loadWorkflow } from './workflow/workflows';
import type { WorkflowDefinition } from './workflow/types';

/** A count stops here: the console shows "99+" style figures, and no count reads more rows than this. */
export const TO_DO_CAP = 100;
/** The most claim candidates one count looks at (each is weighed by its descriptor). */
const CANDIDATE_LIMIT = 200;

export interface TodoAnswer {
  claims_to_sign: number;
  your_share_total: string;
  claims_to_pay: number | null;
  own_claims_returned: number;
  drafts_to_issue: number | null;
  einvoices_needing_attention: number | null;
  overdue_invoices: number | null;
  currency: string;
  cap: number;
}

const statesOf = (def: WorkflowDefinition, semantics: string[]) => def.states.filter((s) => semantics.includes(s.semantic)).map((s) => s.key);

/**
 * Walks the claims of the list query (newest first, at most CANDIDATE_LIMIT) and keeps those `keep`
 * accepts, up to TO_DO_CAP.
 */
async function walkClaims<T>(ctx: ServiceContext, query: Omit<ClaimListQuery, 'take' | 'after'>, keep: (row: Awaited<ReturnType<typeof listClaimRows>>[number]) => Promise<T | undefined>) {
  const kept: T[] = [];
  let after: ClaimListQuery['after'];
  let seen = 0;
  while (seen < CANDIDATE_LIMIT && kept.length < TO_DO_CAP) {
    const rows = await listClaimRows(ctx.db, { ...query, after, take: 50 });
    for (const row of rows) {
      seen++;
      const k = await keep(row);
      if (k !== undefined) kept.push(k);
      if (kept.length >= TO_DO_CAP) break;
    }
    const last = rows[rows.length - 1];
    if (rows.length < 50 || !last) break;
    after = { value: last.sortValue, id: last.id };
  }
  return kept;
}

export async function todo(ctx: ServiceContext): Promise<TodoAnswer> {
  const organizationId = ctx.org.id;
  const base = ctx.org.baseCurrency;
  const claimFlow = await loadWorkflow(ctx.db, organizationId, 'expense_claim');
  const listQuery = { organizationId, reader: claimReader(ctx), timeZone: ctx.org.timeZone };

  // Claims to sign: the to_act scope of the claim list, kept when the approve descriptor signs a share for the caller.
  const signing = await walkClaims(ctx, { ...listQuery, scope: 'to_act' }, async (row) => {
    const signs = await approveSigns(ctx, row);
    return signs.length > 0 ? signs.reduce((sum, s) => sum.plus(s.amount), new Dec(0)) : undefined;
  });

  // Claims to pay: in a state the pay edge leaves, kept when its descriptor allows the caller.
  let toPay: number | null = null;
  if (hasPermission(ctx.principal, 'expenses.claim.pay')) {
    toPay = 0;
    for (const state of new Set(claimFlow.transitions.filter((t) => t.action_key === 'pay').map((t) => t.from))) {
      const payable = await walkClaims(ctx, { ...listQuery, scope: 'all', state }, async (row) =>
        (await claimTransitions(ctx, row)).some((d) => d.action_key === 'pay' && d.allowed) ? true : undefined,
      );
      toPay = Math.min(TO_DO_CAP, toPay + payable.length);
    }
  }

  // Returned: a draft state reached by an edge the claimant did not take themselves (return, not withdraw or amend).
  const draftStates = statesOf(claimFlow, ['draft']);
  const returnActions = claimFlow.transitions.filter((t) => draftStates.includes(t.to) && t.gate !== 'reporter').map((t) => t.action_key);
  const ownReturned = await countReturnedClaims(ctx.db, { organizationId, memberId: ctx.principal.memberId, draftStates, returnActions, cap: TO_DO_CAP });

  let drafts: number | null = null;
  let einvoices: number | null = null;
  let overdue: number | null = null;
  const mayIssue = hasPermission(ctx.principal, 'receivables.invoice.issue');
  const mayRead = hasPermission(ctx.principal, 'receivables.invoice.read');
  if (mayIssue || mayRead) {
    const documentFlow = await loadWorkflow(ctx.db, organizationId, 'receivable_document');
    const ended = statesOf(documentFlow, ['cancelled', 'rejected']);
    if (mayIssue) {
      drafts = await countDraftDocuments(ctx.db, { organizationId, draftStates: statesOf(documentFlow, ['draft']), cap: TO_DO_CAP });
      einvoices = await countEinvoicesNeedingAttention(ctx.db, { organizationId, excludedStates: ended, cap: TO_DO_CAP });
    }
    if (mayRead) overdue = await countOverdueDocuments(ctx.db, { organizationId, today: ctx.today, excludedStates: ended, cap: TO_DO_CAP });
  }

  return {
    claims_to_sign: signing.length,
    your_share_total: formatAmount(signing.reduce((sum, s) => sum.plus(s), new Dec(0)), base),
    claims_to_pay: toPay,
    own_claims_returned: ownReturned,
    drafts_to_issue: drafts,
    einvoices_needing_attention: einvoices,
    overdue_invoices: overdue,
    currency: base,
    cap: TO_DO_CAP,
  };
}
