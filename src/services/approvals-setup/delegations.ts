/**
 * Delegations (settings.delegations and me.delegations, docs/design.md §17): a member lends their
 * approval authority to another active member for a dated period (both ends inclusive, at most
 * DELEGATION_MAX_DAYS), all of it or one grant's, axis's or analytic account's. Two active
 * delegations of the same delegator for the same scope and target never overlap (409); changes of one
 * delegator's delegations run one after the other. `me.*` passes `delegatorMemberId` = the caller.
 */
import { lockSetupScope } from '../../db/queries/keyset';
import * as q from '../../db/queries/approvals';
import { findMemberRef } from '../../db/queries/people';
import { findAnalyticAccountsByIds } from '../../db/queries/analytic-accounts';
import { findAnalyticAxis } from '../../db/queries/analytic-axes';
import { DELEGATION_MAX_DAYS, type DelegationScope } from '../../domain/approvals';
import { datedPeriod, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { keysetPage, type PageInput } from '../settings/page';
import { changeRecord, conflict, createdRecord, deactivateRecord, visibleText, type RecordChange, type SetupFamily } from '../settings/setup';

const ENTITY = 'delegations';
const TARGETS = { grant: 'grant_id', axis: 'axis_id', analytic_account: 'analytic_account_id' } as const;

export function delegationView(d: q.DelegationRecord) {
  return {
    id: d.id,
    delegator_member_id: d.delegatorMemberId,
    delegate_member_id: d.delegateMemberId,
    valid_from: d.validFrom,
    valid_to: d.validTo,
    scope: d.scope,
    grant_id: d.grantId,
    axis_id: d.axisId,
    analytic_account_id: d.analyticAccountId,
    reason: d.reason,
    active: d.active,
    revision: d.revision,
    created_at: d.createdAt.toISOString(),
  };
}
export type DelegationAnswer = ReturnType<typeof delegationView>;

export interface ListDelegationsInput extends PageInput {
  include_inactive?: boolean;
  delegator_member_id?: string;
  delegate_member_id?: string;
}

export async function listDelegations(ctx: ServiceContext, input: ListDelegationsInput, list = 'settings.delegations') {
  const includeInactive = input.include_inactive ?? false;
  const filters = { include_inactive: includeInactive, delegator: input.delegator_member_id ?? null, delegate: input.delegate_member_id ?? null };
  return keysetPage(
    ctx,
    list,
    input,
    filters,
    (after, limit) =>
      q.listDelegationsPage(ctx.db, {
        organizationId: ctx.org.id,
        includeInactive,
        delegatorMemberId: input.delegator_member_id,
        delegateMemberId: input.delegate_member_id,
        after,
        limit,
      }),
    (d) => d.validFrom,
    delegationView,
  );
}

/** Days from `from` to `to`, both included. */
export function daysInclusive(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

function checkPeriod(r: Refusals, from: string, to: string): void {
  if (datedPeriod(r, from, to)) r.check(daysInclusive(from, to) <= DELEGATION_MAX_DAYS, '/valid_to', `must be at most ${DELEGATION_MAX_DAYS} days after valid_from, both days included`);
}

async function activeMember(ctx: ServiceContext, r: Refusals, id: string, pointer: string): Promise<void> {
  const m = await findMemberRef(ctx.db, { organizationId: ctx.org.id, id });
  r.check(Boolean(m?.active), pointer, 'is not an active member of this organization');
}

export interface CreateDelegationInput {
  delegator_member_id: string;
  delegate_member_id: string;
  valid_from: string;
  valid_to: string;
  scope?: DelegationScope;
  grant_id?: string;
  axis_id?: string;
  analytic_account_id?: string;
  reason?: string;
}

/** The scope's target: exactly the matching one of grant_id / axis_id / analytic_account_id, active in this organization. */
async function checkScope(ctx: ServiceContext, r: Refusals, input: CreateDelegationInput, scope: DelegationScope): Promise<string | null> {
  for (const [s, key] of Object.entries(TARGETS)) {
    if (s !== scope) r.check(input[key] === undefined, `/${key}`, `must be absent when scope is ${scope}`);
  }
  if (scope === 'all') return null;
  const key = TARGETS[scope];
  const id = input[key];
  if (!r.check(id !== undefined, `/${key}`, `is required when scope is ${scope}`)) return null;
  const org = { organizationId: ctx.org.id, id: id! };
  const active =
    scope === 'grant'
      ? (await q.findGrant(ctx.db, org))?.active
      : scope === 'axis'
        ? (await findAnalyticAxis(ctx.db, org))?.active
        : (await findAnalyticAccountsByIds(ctx.db, { organizationId: ctx.org.id, ids: [id!] }))[0]?.active;
  r.check(Boolean(active), `/${key}`, `is not an active ${scope.replace('_', ' ')} of this organization`);
  return id!;
}

async function checkNoOverlap(ctx: ServiceContext, d: { delegatorMemberId: string; scope: string; targetId: string | null; from: string; to: string; exceptId?: string }) {
  const [clash] = await q.findOverlappingDelegations(ctx.db, { organizationId: ctx.org.id, ...d });
  if (clash) {
    throw conflict('/valid_from', 'overlaps another active delegation for the same scope', `The active delegation ${clash.id} (${clash.validFrom} to ${clash.validTo}) already covers part of this period for the same scope`);
  }
}

export async function createDelegation(ctx: ServiceContext, input: CreateDelegationInput): Promise<DelegationAnswer> {
  const r = new Refusals();
  const scope = input.scope ?? 'all';
  const reason = visibleText(r, input.reason, '/reason', 500);
  await lockSetupScope(ctx.db, ctx.org.id, `delegations:${input.delegator_member_id}`);
  await activeMember(ctx, r, input.delegator_member_id, '/delegator_member_id');
  await activeMember(ctx, r, input.delegate_member_id, '/delegate_member_id');
  r.check(input.delegate_member_id !== input.delegator_member_id, '/delegate_member_id', 'must be another member than the delegator');
  checkPeriod(r, input.valid_from, input.valid_to);
  const targetId = await checkScope(ctx, r, input, scope);
  r.throwIfAny();
  await checkNoOverlap(ctx, { delegatorMemberId: input.delegator_member_id, scope, targetId, from: input.valid_from, to: input.valid_to });
  return createdRecord(
    ctx,
    delegationsOf(),
    await q.insertDelegationRow(ctx.db, {
      organizationId: ctx.org.id,
      delegatorMemberId: input.delegator_member_id,
      delegateMemberId: input.delegate_member_id,
      validFrom: input.valid_from,
      validTo: input.valid_to,
      scope,
      grantId: input.grant_id ?? null,
      axisId: input.axis_id ?? null,
      analyticAccountId: input.analytic_account_id ?? null,
      reason: reason ?? null,
    }),
  );
}

/**
 * Delegations as set-up records, locked per delegator (their periods are checked one request at a
 * time); `onlyDelegator` (me.delegations) makes anybody else's 404.
 */
function delegationsOf(onlyDelegator?: string): SetupFamily<q.DelegationRecord, DelegationAnswer> {
  return {
    entity: ENTITY,
    what: 'delegation',
    lock: async (ctx, id) => {
      const found = await q.findDelegation(ctx.db, { organizationId: ctx.org.id, id });
      if (!found || (onlyDelegator && found.delegatorMemberId !== onlyDelegator)) return undefined;
      await lockSetupScope(ctx.db, ctx.org.id, `delegations:${found.delegatorMemberId}`);
      return q.findDelegation(ctx.db, { organizationId: ctx.org.id, id, forUpdate: true });
    },
    write: (ctx, current, set) => q.updateDelegationRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, set),
    view: (_ctx, row) => delegationView(row),
    inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
  };
}

export interface UpdateDelegationInput extends RecordChange {
  valid_from?: string;
  valid_to?: string;
  reason?: string | null;
}

export async function updateDelegation(ctx: ServiceContext, input: UpdateDelegationInput): Promise<DelegationAnswer> {
  const r = new Refusals();
  const reason = input.reason === null ? null : visibleText(r, input.reason, '/reason', 500);
  return changeRecord(ctx, delegationsOf(), input, async (current) => {
    if (!current.active) throw conflict('/id', 'is inactive', 'An inactive delegation is kept as it was; create a new one instead');
    const from = input.valid_from ?? current.validFrom;
    const to = input.valid_to ?? current.validTo;
    checkPeriod(r, from, to);
    r.throwIfAny();
    const targetId = current.grantId ?? current.axisId ?? current.analyticAccountId;
    await checkNoOverlap(ctx, { delegatorMemberId: current.delegatorMemberId, scope: current.scope, targetId, from, to, exceptId: current.id });
    return { validFrom: from, validTo: to, reason };
  });
}

export async function deactivateDelegation(ctx: ServiceContext, input: RecordChange, onlyDelegator?: string): Promise<DelegationAnswer> {
  return deactivateRecord(ctx, delegationsOf(onlyDelegator), input, () => ({ active: false }));
}

// me.delegations: the caller as delegator --------------------------------------------------------

export async function listMyDelegations(ctx: ServiceContext, input: PageInput & { include_inactive?: boolean }) {
  return listDelegations(ctx, { ...input, delegator_member_id: ctx.principal.memberId }, 'me.delegations');
}

export async function createMyDelegation(ctx: ServiceContext, input: Omit<CreateDelegationInput, 'delegator_member_id'>) {
  return createDelegation(ctx, { ...input, delegator_member_id: ctx.principal.memberId });
}

export async function deactivateMyDelegation(ctx: ServiceContext, input: { id: string; expected_revision: number }) {
  return deactivateDelegation(ctx, input, ctx.principal.memberId);
}
