/**
 * settings.approverAssignments: a member approving one analytic account's shares for a dated period
 * (valid_to inclusive, null = open) within a band (min_amount default 0, max_amount null = no limit),
 * in the base currency. The account and member are fixed at creation; the period and band change.
 */
import * as q from '../../db/queries/approvals';
import { findMemberRef } from '../../db/queries/people';
import { findAnalyticAccountsByIds } from '../../db/queries/analytic-accounts';
import { Dec, formatAmount } from '../../lib/money';
import { amountInCurrency, datedPeriod, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { refreshOpenSignoffs } from '../workflow/approvals/claim-step';
import { keysetPage, type PageInput } from '../settings/page';
import { changeRecord, conflict, createdRecord, deactivateRecord, type RecordChange, type SetupFamily } from '../settings/setup';

const assignments: SetupFamily<q.ApproverAssignmentRow, AssignmentAnswer> = {
  entity: 'approverAssignments',
  what: 'approver assignment',
  lock: (ctx, id) => q.findAssignment(ctx.db, { organizationId: ctx.org.id, id, forUpdate: true }),
  write: (ctx, current, set) => q.updateAssignmentRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, set),
  view: (ctx, row) => assignmentView(ctx, row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export function assignmentView(ctx: ServiceContext, a: q.ApproverAssignmentRow) {
  const base = ctx.org.baseCurrency;
  return {
    id: a.id,
    analytic_account_id: a.analyticAccountId,
    member_id: a.memberId,
    valid_from: a.validFrom,
    valid_to: a.validTo,
    min_amount: formatAmount(a.minAmount, base),
    max_amount: a.maxAmount === null ? null : formatAmount(a.maxAmount, base),
    active: a.active,
    revision: a.revision,
    created_at: a.createdAt.toISOString(),
  };
}
export type AssignmentAnswer = ReturnType<typeof assignmentView>;

export async function listAssignments(ctx: ServiceContext, input: PageInput & { include_inactive?: boolean; analytic_account_id?: string }) {
  const includeInactive = input.include_inactive ?? false;
  const analyticAccountId = input.analytic_account_id;
  return keysetPage(
    ctx,
    'settings.approverAssignments',
    input,
    { include_inactive: includeInactive, analytic_account_id: analyticAccountId ?? null },
    (after, limit) => q.listAssignmentsPage(ctx.db, { organizationId: ctx.org.id, includeInactive, analyticAccountId, after, limit }),
    (a) => a.validFrom,
    (a) => assignmentView(ctx, a),
  );
}

/** The band: amounts in the base currency's places, not negative, max ≥ min. */
function checkBand(ctx: ServiceContext, r: Refusals, min: string, max: string | null): void {
  const base = ctx.org.baseCurrency;
  const minOk = amountInCurrency(r, min, base, '/min_amount');
  if (max === null) return;
  if (amountInCurrency(r, max, base, '/max_amount') && minOk) r.check(new Dec(max).gte(min), '/max_amount', 'must not be less than min_amount');
}

export interface CreateAssignmentInput {
  analytic_account_id: string;
  member_id: string;
  valid_from: string;
  valid_to?: string | null;
  min_amount?: string;
  max_amount?: string | null;
}

export async function createAssignment(ctx: ServiceContext, input: CreateAssignmentInput): Promise<AssignmentAnswer> {
  const r = new Refusals();
  const org = { organizationId: ctx.org.id };
  const [account] = await findAnalyticAccountsByIds(ctx.db, { ...org, ids: [input.analytic_account_id] });
  r.check(Boolean(account?.active), '/analytic_account_id', 'is not an active analytic account of this organization');
  const member = await findMemberRef(ctx.db, { ...org, id: input.member_id });
  r.check(Boolean(member?.active), '/member_id', 'is not an active member of this organization');
  datedPeriod(r, input.valid_from, input.valid_to);
  const min = input.min_amount ?? '0';
  const max = input.max_amount ?? null;
  checkBand(ctx, r, min, max);
  r.throwIfAny();
  const row = await q.insertAssignmentRow(ctx.db, {
    ...org,
    analyticAccountId: input.analytic_account_id,
    memberId: input.member_id,
    validFrom: input.valid_from,
    validTo: input.valid_to ?? null,
    minAmount: min,
    maxAmount: max,
  });
  const after = await createdRecord(ctx, assignments, row);
  // Only the sign-offs on the assignment's own account can resolve through it.
  await refreshOpenSignoffs(ctx, { analyticAccountIds: [input.analytic_account_id] });
  return after;
}

export interface UpdateAssignmentInput extends RecordChange {
  valid_from?: string;
  valid_to?: string | null;
  min_amount?: string;
  max_amount?: string | null;
}

/** An amount as stored, or undefined when the one sent reads the same ("100" for 100.00). */
const changedAmount = (sent: string | null, stored: string | null) =>
  sent === null || stored === null ? (sent === stored ? undefined : sent) : new Dec(sent).eq(stored) ? undefined : sent;

export async function updateAssignment(ctx: ServiceContext, input: UpdateAssignmentInput): Promise<AssignmentAnswer> {
  const answer = await changeRecord(ctx, assignments, input, (current) => {
    if (!current.active) throw conflict('/id', 'is inactive', 'An inactive approver assignment is kept as it was; create a new one instead');
    const r = new Refusals();
    const from = input.valid_from ?? current.validFrom;
    const to = input.valid_to === undefined ? current.validTo : input.valid_to;
    datedPeriod(r, from, to);
    const min = input.min_amount ?? new Dec(current.minAmount).toFixed();
    const max = input.max_amount === undefined ? (current.maxAmount === null ? null : new Dec(current.maxAmount).toFixed()) : input.max_amount;
    checkBand(ctx, r, min, max);
    r.throwIfAny();
    return { validFrom: from, validTo: to, minAmount: changedAmount(min, current.minAmount) ?? undefined, maxAmount: changedAmount(max, current.maxAmount) };
  });
  await refreshOpenSignoffs(ctx, { analyticAccountIds: [answer.analytic_account_id] });
  return answer;
}

export async function deactivateAssignment(ctx: ServiceContext, input: RecordChange): Promise<AssignmentAnswer> {
  const answer = await deactivateRecord(ctx, assignments, input, () => ({ active: false }));
  await refreshOpenSignoffs(ctx, { analyticAccountIds: [answer.analytic_account_id] });
  return answer;
}
