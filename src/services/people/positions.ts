import { lockSetupScope } from '../../db/queries/keyset';
import * as people from '../../db/queries/people';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { openPage } from '../settings/page';
import { changeRecord, conflict, createdRecord, deactivateRecord, isoOrNull, visibleText, type RecordChange, type SetupFamily } from '../settings/setup';
import { ORG_CHART_SCOPE } from './org-units';

/**
 * settings.positions: seats in the org chart that members are assigned to. A position sits in an
 * active unit, may report to another position (never, through the chain, to itself), and may be its
 * unit's head (at most one head position per unit that is not retired). Deactivating retires it: a
 * retired position stays for history, takes no new assignment and no change.
 */

const ENTITY = 'positions';

export function positionView(row: people.PositionRow) {
  return {
    id: row.id,
    org_unit_id: row.orgUnitId,
    title: row.title,
    is_unit_head: row.isUnitHead,
    reports_to_position_id: row.reportsToPositionId,
    retired_at: isoOrNull(row.retiredAt),
    revision: row.revision,
    created_at: row.createdAt.toISOString(),
  };
}
export type PositionAnswer = ReturnType<typeof positionView>;

async function checkUnit(ctx: ServiceContext, r: Refusals, orgUnitId: string | undefined): Promise<boolean> {
  if (orgUnitId === undefined) return true;
  const unit = await people.findOrgUnit(ctx.db, { organizationId: ctx.org.id, id: orgUnitId });
  return r.check(Boolean(unit?.active), '/org_unit_id', 'is not an active org unit of this organization');
}

async function checkReportsTo(ctx: ServiceContext, r: Refusals, reportsTo: string | null | undefined, selfId?: string): Promise<void> {
  if (!reportsTo) return;
  const target = await people.findPosition(ctx.db, { organizationId: ctx.org.id, id: reportsTo });
  if (!r.check(Boolean(target), '/reports_to_position_id', 'is not a position of this organization')) return;
  if (!r.check(!target!.retiredAt, '/reports_to_position_id', 'names a retired position')) return;
  if (selfId) {
    const chain = await people.positionReportingChain(ctx.db, { organizationId: ctx.org.id, id: reportsTo });
    r.check(!chain.includes(selfId), '/reports_to_position_id', 'would make the position report to itself (a cycle)');
  }
}

async function checkSingleHead(ctx: ServiceContext, orgUnitId: string, selfId?: string): Promise<void> {
  const other = await people.findOtherUnitHead(ctx.db, { organizationId: ctx.org.id, orgUnitId, exceptId: selfId });
  if (other) {
    throw conflict('/is_unit_head', 'the unit already has a head position', `The unit's head position is already ${other.title} (${other.id}); clear its is_unit_head first`);
  }
}

export interface ListPositionsInput {
  include_inactive?: boolean;
  org_unit_id?: string;
  limit?: number;
  cursor?: string;
}

/** Positions by title; retired ones with `include_inactive`. */
export async function listPositions(ctx: ServiceContext, input: ListPositionsInput) {
  const filters = { include_inactive: input.include_inactive ?? false, org_unit_id: input.org_unit_id };
  const page = await openPage(ctx, ENTITY, input, filters);
  const rows = await people.listPositions(ctx.db, {
    organizationId: ctx.org.id,
    includeRetired: filters.include_inactive,
    orgUnitId: input.org_unit_id,
    after: page.after,
    limit: page.take,
  });
  return page.answer(rows, (p) => ({ value: p.title, id: p.id }), positionView);
}

export interface CreatePositionInput {
  org_unit_id: string;
  title: string;
  is_unit_head?: boolean;
  reports_to_position_id?: string | null;
}

const positions: SetupFamily<people.PositionRow, PositionAnswer> = {
  entity: ENTITY,
  what: 'position',
  lock: async (ctx, id) => {
    await lockSetupScope(ctx.db, ctx.org.id, ORG_CHART_SCOPE);
    return people.lockPosition(ctx.db, { organizationId: ctx.org.id, id });
  },
  write: (ctx, current, set) => people.updatePositionRow(ctx.db, { organizationId: ctx.org.id, id: current.id, set }),
  view: (_ctx, row) => positionView(row),
  inactive: (_ctx, row) => (row.retiredAt ? 'is already retired' : undefined),
};

export async function createPosition(ctx: ServiceContext, input: CreatePositionInput): Promise<PositionAnswer> {
  const r = new Refusals();
  const title = visibleText(r, input.title, '/title', 200);
  await lockSetupScope(ctx.db, ctx.org.id, ORG_CHART_SCOPE);
  await checkUnit(ctx, r, input.org_unit_id);
  await checkReportsTo(ctx, r, input.reports_to_position_id);
  r.throwIfAny();
  if (input.is_unit_head) await checkSingleHead(ctx, input.org_unit_id);
  const row = await people.insertPosition(ctx.db, {
    organizationId: ctx.org.id,
    orgUnitId: input.org_unit_id,
    title,
    isUnitHead: input.is_unit_head ?? false,
    reportsToPositionId: input.reports_to_position_id ?? null,
  });
  return createdRecord(ctx, positions, row);
}

export interface UpdatePositionInput extends RecordChange {
  org_unit_id?: string;
  title?: string;
  is_unit_head?: boolean;
  reports_to_position_id?: string | null;
}

export async function updatePosition(ctx: ServiceContext, input: UpdatePositionInput): Promise<PositionAnswer> {
  return changeRecord(ctx, positions, input, async (current) => {
    if (current.retiredAt) throw conflict('/id', 'is retired', 'A retired position is kept as it was; create a new position instead');
    const r = new Refusals();
    const title = visibleText(r, input.title, '/title', 200);
    await checkUnit(ctx, r, input.org_unit_id);
    await checkReportsTo(ctx, r, input.reports_to_position_id, current.id);
    r.throwIfAny();
    const unitId = input.org_unit_id ?? current.orgUnitId;
    if (input.is_unit_head ?? current.isUnitHead) await checkSingleHead(ctx, unitId, current.id);
    return { orgUnitId: input.org_unit_id, title, isUnitHead: input.is_unit_head, reportsToPositionId: input.reports_to_position_id };
  });
}

/** Retires the position (`retired_at` = now). Its holders keep their dated assignments. */
export async function retirePosition(ctx: ServiceContext, input: RecordChange): Promise<PositionAnswer> {
  return deactivateRecord(ctx, positions, input, () => ({ retiredAt: ctx.now }));
}
