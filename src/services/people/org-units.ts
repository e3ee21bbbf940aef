import { lockSetupScope } from '../../db/queries/keyset';
import * as people from '../../db/queries/people';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { decodePage, pageOf } from '../settings/page';
import { conflict, notFound, pageLimit, uniqueOrConflict, visibleText, written } from '../settings/records';

/**
 * settings.orgUnits: the units of the organization chart. A code is unique in the organization; a
 * parent is an active unit of the same organization and never the unit itself or one below it; the
 * head is the holder of the unit's position flagged is_unit_head (positions.ts keeps it to one).
 * Every change is one settings-history entry in the caller's transaction.
 */

const ENTITY = 'orgUnits';

/**
 * Changes to units and positions check rules across rows (no cycle, one head, nothing left in a
 * deactivated unit): they take this organization-wide lock first, so they run one after the other.
 */
export const ORG_CHART_SCOPE = 'org_chart';

export function orgUnitView(row: people.OrgUnitView) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    parent_id: row.parentId,
    head_position_id: row.headPositionId,
    active: row.active,
    revision: row.revision,
    created_at: row.createdAt.toISOString(),
  };
}
export type OrgUnitAnswer = ReturnType<typeof orgUnitView>;

async function viewOf(ctx: ServiceContext, id: string): Promise<OrgUnitAnswer> {
  return orgUnitView(written(await people.findOrgUnit(ctx.db, { organizationId: ctx.org.id, id })));
}

async function checkParent(ctx: ServiceContext, r: Refusals, parentId: string | null | undefined, selfId?: string): Promise<void> {
  if (!parentId) return;
  const parent = await people.findOrgUnit(ctx.db, { organizationId: ctx.org.id, id: parentId });
  if (!r.check(Boolean(parent?.active), '/parent_id', 'is not an active org unit of this organization')) return;
  if (selfId) {
    const chain = await people.orgUnitChain(ctx.db, { organizationId: ctx.org.id, id: parentId });
    r.check(!chain.includes(selfId), '/parent_id', 'would put the unit under itself (a cycle)');
  }
}

export interface ListOrgUnitsInput {
  include_inactive?: boolean;
  parent_id?: string;
  limit?: number;
  cursor?: string;
}

export async function listOrgUnits(ctx: ServiceContext, input: ListOrgUnitsInput) {
  const filters = { include_inactive: input.include_inactive ?? false, parent_id: input.parent_id };
  const after = await decodePage(ctx, ENTITY, input, filters);
  const limit = pageLimit(input);
  const rows = await people.listOrgUnits(ctx.db, {
    organizationId: ctx.org.id,
    includeInactive: filters.include_inactive,
    parentId: input.parent_id,
    after,
    limit: limit + 1,
  });
  return pageOf(ctx, ENTITY, filters, rows, limit, (r) => ({ value: r.code, id: r.id }), orgUnitView);
}

export interface CreateOrgUnitInput {
  code: string;
  name: string;
  parent_id?: string | null;
}

export async function createOrgUnit(ctx: ServiceContext, input: CreateOrgUnitInput): Promise<OrgUnitAnswer> {
  const r = new Refusals();
  const code = visibleText(r, input.code, '/code', 50);
  const name = visibleText(r, input.name, '/name', 200);
  await lockSetupScope(ctx.db, ctx.org.id, ORG_CHART_SCOPE);
  await checkParent(ctx, r, input.parent_id);
  r.throwIfAny();
  const row = written(
    await uniqueOrConflict(
      people.insertOrgUnit(ctx.db, { organizationId: ctx.org.id, code, name, parentId: input.parent_id ?? null }),
      'org_units_org_code',
      '/code',
      `An org unit with the code ${code} already exists`,
    ),
  );
  const after = await viewOf(ctx, row.id);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', after });
  return after;
}

export interface UpdateOrgUnitInput {
  id: string;
  expected_revision: number;
  code?: string;
  name?: string;
  parent_id?: string | null;
}

export async function updateOrgUnit(ctx: ServiceContext, input: UpdateOrgUnitInput): Promise<OrgUnitAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  await lockSetupScope(ctx.db, ctx.org.id, ORG_CHART_SCOPE);
  const current = await people.lockOrgUnit(ctx.db, q);
  if (!current) throw notFound('org unit');
  checkRevision(current.revision, input.expected_revision);
  const before = await viewOf(ctx, current.id);
  const r = new Refusals();
  const code = visibleText(r, input.code, '/code', 50);
  const name = visibleText(r, input.name, '/name', 200);
  await checkParent(ctx, r, input.parent_id, current.id);
  r.throwIfAny();
  await uniqueOrConflict(
    people.updateOrgUnitRow(ctx.db, { ...q, set: { code, name, parentId: input.parent_id } }),
    'org_units_org_code',
    '/code',
    `An org unit with the code ${code} already exists`,
  );
  const after = await viewOf(ctx, current.id);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: current.id, action: 'update', before, after });
  return after;
}

/** A unit is deactivated once nothing hangs on it: no active sub-unit, no position that is not retired. */
export async function deactivateOrgUnit(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<OrgUnitAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  await lockSetupScope(ctx.db, ctx.org.id, ORG_CHART_SCOPE);
  const current = await people.lockOrgUnit(ctx.db, q);
  if (!current) throw notFound('org unit');
  checkRevision(current.revision, input.expected_revision);
  if (!current.active) throw conflict('/id', 'is already inactive', 'The org unit is already inactive');
  const dependents = await people.orgUnitDependents(ctx.db, q);
  if (dependents.units || dependents.positions) {
    throw conflict(
      '/id',
      'still has active sub-units or positions',
      `The org unit still has ${dependents.units} active sub-unit(s) and ${dependents.positions} position(s) not retired; move or retire them first`,
    );
  }
  const before = await viewOf(ctx, current.id);
  await people.updateOrgUnitRow(ctx.db, { ...q, set: { active: false } });
  const after = await viewOf(ctx, current.id);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: current.id, action: 'deactivate', before, after });
  return after;
}
