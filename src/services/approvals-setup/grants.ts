/**
 * settings.approvalGrants: where approval authority comes from (docs/design.md §17). `kind` and `step`
 * are fixed at creation (update does not take them: 400 unknown field). Changes are serialized per
 * organization (the primary-grant and fallback rules read the other grants) and per record (row lock).
 * Deactivating a grant another active grant falls back to is 409; `update` with `active: true` reactivates.
 */
import { lockSetupScope } from '../../db/queries/keyset';
import * as q from '../../db/queries/approvals';
import type { ApprovalGrantKind, ApprovalStep } from '../../domain/approvals';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { refreshOpenSignoffs } from '../workflow/approvals/claim-step';
import { keysetPage, type PageInput } from '../settings/page';
import { changeRecord, conflict, createdRecord, deactivateRecord, visibleText, type RecordChange, type SetupFamily } from '../settings/setup';
import { checkBands, checkGrantShape, checkPrimary, type BandInput, type GrantShape } from './grant-rules';

const ENTITY = 'approvalGrants';
const SCOPE = 'approval-grants';

export function grantView(g: q.ApprovalGrantRow) {
  return {
    id: g.id,
    name: g.name,
    kind: g.kind,
    step: g.step,
    axis_id: g.axisId,
    holder_position_id: g.holderPositionId,
    holder_member_id: g.holderMemberId,
    max_levels: g.maxLevels,
    fallback_grant_id: g.fallbackGrantId,
    bands: g.bands,
    active: g.active,
    revision: g.revision,
    created_at: g.createdAt.toISOString(),
  };
}
export type GrantAnswer = ReturnType<typeof grantView>;

export async function listGrants(ctx: ServiceContext, input: PageInput & { include_inactive?: boolean }) {
  const includeInactive = input.include_inactive ?? false;
  return keysetPage(
    ctx,
    'settings.approvalGrants',
    input,
    { include_inactive: includeInactive },
    (after, limit) => q.listGrantsPage(ctx.db, { organizationId: ctx.org.id, includeInactive, after, limit }),
    (g) => g.name,
    grantView,
  );
}

/** Changes are serialized per organization (the primary-grant and fallback rules read the other grants), then per row. */
const grants: SetupFamily<q.ApprovalGrantRow, GrantAnswer> = {
  entity: ENTITY,
  what: 'approval grant',
  lock: async (ctx, id) => {
    await lockSetupScope(ctx.db, ctx.org.id, SCOPE);
    return q.findGrant(ctx.db, { organizationId: ctx.org.id, id, forUpdate: true });
  },
  write: (ctx, current, set) => q.updateGrantRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, set),
  view: (_ctx, row) => grantView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

interface GrantFields {
  name?: string;
  axis_id?: string | null;
  holder_position_id?: string | null;
  holder_member_id?: string | null;
  max_levels?: number | null;
  fallback_grant_id?: string | null;
  bands?: BandInput[];
}

export interface CreateGrantInput extends GrantFields {
  name: string;
  kind: ApprovalGrantKind;
  step: ApprovalStep;
}

export async function createGrant(ctx: ServiceContext, input: CreateGrantInput): Promise<GrantAnswer> {
  const r = new Refusals();
  const name = visibleText(r, input.name, '/name', 200);
  await lockSetupScope(ctx.db, ctx.org.id, SCOPE);
  const shape: GrantShape = {
    kind: input.kind,
    step: input.step,
    axisId: input.axis_id ?? null,
    holderPositionId: input.holder_position_id ?? null,
    holderMemberId: input.holder_member_id ?? null,
    maxLevels: input.max_levels ?? null,
    fallbackGrantId: input.fallback_grant_id ?? null,
  };
  await checkGrantShape(ctx, r, shape);
  const bands = checkBands(ctx, r, input.kind, input.bands ?? []);
  r.throwIfAny();
  await checkPrimary(ctx, shape);
  const [row] = await q.insertGrants(ctx.db, [{ organizationId: ctx.org.id, name, ...shape, bands: bands ?? [] }]);
  const after = await createdRecord(ctx, grants, row);
  await refreshOpenSignoffs(ctx);
  return after;
}

export interface UpdateGrantInput extends GrantFields, RecordChange {
  active?: boolean;
}

/** 409 while an active grant names this one as its fallback. */
async function checkNotAFallback(ctx: ServiceContext, current: q.ApprovalGrantRow): Promise<void> {
  const others = await q.findOtherActiveGrants(ctx.db, { organizationId: ctx.org.id, exceptId: current.id });
  const dependant = others.find((o) => o.fallbackGrantId === current.id);
  if (dependant) {
    throw conflict('/id', 'is the fallback of an active grant', `The active grant ${dependant.name} (${dependant.id}) falls back to this one; change its fallback first`);
  }
}

export async function updateGrant(ctx: ServiceContext, input: UpdateGrantInput): Promise<GrantAnswer> {
  const r = new Refusals();
  const name = visibleText(r, input.name, '/name', 200);
  if (input.active === false) {
    r.throwIfAny();
    return deactivateGrant(ctx, input);
  }
  const answer = await changeRecord(
    ctx,
    grants,
    input,
    async (current) => {
      if (!current.active && input.active !== true) throw conflict('/id', 'is inactive', 'An inactive grant is kept as it was; reactivate it with active: true');
      const shape: GrantShape = {
        id: current.id,
        kind: current.kind,
        step: current.step,
        axisId: input.axis_id === undefined ? current.axisId : input.axis_id,
        holderPositionId: input.holder_position_id === undefined ? current.holderPositionId : input.holder_position_id,
        holderMemberId: input.holder_member_id === undefined ? current.holderMemberId : input.holder_member_id,
        maxLevels: input.max_levels === undefined ? current.maxLevels : input.max_levels,
        fallbackGrantId: input.fallback_grant_id === undefined ? current.fallbackGrantId : input.fallback_grant_id,
      };
      await checkGrantShape(ctx, r, shape);
      const bands = checkBands(ctx, r, current.kind, input.bands);
      r.throwIfAny();
      await checkPrimary(ctx, shape);
      const { id: _id, kind: _k, step: _s, ...set } = shape;
      return { ...set, name, bands, active: true };
    },
    (current) => (current.active ? 'update' : 'reactivate'),
  );
  await refreshOpenSignoffs(ctx);
  return answer;
}

export async function deactivateGrant(ctx: ServiceContext, input: RecordChange): Promise<GrantAnswer> {
  const answer = await deactivateRecord(ctx, grants, input, async (current) => {
    await checkNotAFallback(ctx, current);
    return { active: false };
  });
  await refreshOpenSignoffs(ctx);
  return answer;
}
