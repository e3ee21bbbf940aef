import { lockSetupScope } from '../../db/queries/keyset';
import * as people from '../../db/queries/people';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { openPage } from '../settings/page';
import { changeRecord, conflict, createdRecord, deactivateRecord, uniquely, visibleText, written, type RecordChange, type SetupFamily } from '../settings/setup';

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

const orgUnits: SetupFamily<people.OrgUnitRow, OrgUnitAnswer> = {
  entity: ENTITY,
  what: 'org unit',
  lock: async (ctx, id) => {
    await lockSetupScope(ctx.db, ctx.org.id, ORG_CHART_SCOPE);
    return people.lockOrgUnit(ctx.db, { organizationId: ctx.org.id, id });
  },
  write: (ctx, current, set) => codeInUse(() => people.updateOrgUnitRow(ctx.db, { organizationId: ctx.org.id, id: current.id, set }), set.code),
  // The head is read with the unit.
  view: async (ctx, row) => orgUnitView(written(await people.findOrgUnit(ctx.db, { organizationId: ctx.org.id, id: row.id }))),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

const codeInUse = <T>(write: () => Promise<T>, code: string | undefined) =>
  uniquely(write, 'org_units_org_code', '/code', `An org unit with the code ${code} already exists`);

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
  const page = await openPage(ctx, ENTITY, input, filters);
  const rows = await people.listOrgUnits(ctx.db, {
    organizationId: ctx.org.id,
    includeInactive: filters.include_inactive,
    parentId: input.parent_id,
    after: page.after,
    limit: page.take,
  });
  return page.answer(rows, (r) => ({ value: r.code, id: r.id }), orgUnitView);
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
  return createdRecord(ctx, orgUnits, await codeInUse(() => people.insertOrgUnit(ctx.db, { organizationId: ctx.org.id, code, name, parentId: input.parent_id ?? null }), code));
}

export interface UpdateOrgUnitInput extends RecordChange {
  code?: string;
  name?: string;
  parent_id?: string | null;
}

export async function updateOrgUnit(ctx: ServiceContext, input: UpdateOrgUnitInput): Promise<OrgUnitAnswer> {
  return changeRecord(ctx, orgUnits, input, async (current) => {
    const r = new Refusals();
    const code = visibleText(r, input.code, '/code', 50);
    const name = visibleText(r, input.name, '/name', 200);
    await checkParent(ctx, r, input.parent_id, current.id);
    r.throwIfAny();
    return { code, name, parentId: input.parent_id };
  });
}

/** A unit is deactivated once nothing hangs on it: no active sub-unit, no position that is not retired. */
export async function deactivateOrgUnit(ctx: ServiceContext, input: RecordChange): Promise<OrgUnitAnswer> {
  return deactivateRecord(ctx, orgUnits, input, async (current) => {
    const dependents = await people.orgUnitDependents(ctx.db, { organizationId: ctx.org.id, id: current.id });
    if (dependents.units || dependents.positions) {
      throw conflict(
        '/id',
        'still has active sub-units or positions',
        `The org unit still has ${dependents.units} active sub-unit(s) and ${dependents.positions} position(s) not retired; move or retire them first`,
      );
    }
    return { active: false };
  });
}
