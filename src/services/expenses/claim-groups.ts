import { insertClaimGroup } from '../../db/queries/claims';
import * as ref from '../../db/queries/expense-reference-data';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { openPage } from '../settings/page';
import { changeRecord, conflict, createdRecord, deactivateRecord, isoOrNull, visibleText, type RecordChange, type SetupFamily } from '../settings/setup';

/**
 * settings.claimGroups: groupings claims are filed under (a trip, an event). Deactivating retires a
 * group: it keeps its claims and takes no new ones; a retired group is kept as it was.
 */

const ENTITY = 'claimGroups';

export function claimGroupView(row: ref.ClaimGroupRow) {
  return { id: row.id, name: row.name, retired_at: isoOrNull(row.retiredAt), revision: row.revision, created_at: row.createdAt.toISOString() };
}
export type ClaimGroupAnswer = ReturnType<typeof claimGroupView>;

export async function listClaimGroups(ctx: ServiceContext, input: { include_inactive?: boolean; limit?: number; cursor?: string }) {
  const filters = { include_inactive: input.include_inactive ?? false };
  const page = await openPage(ctx, ENTITY, input, filters);
  const rows = await ref.listClaimGroups(ctx.db, { organizationId: ctx.org.id, includeRetired: filters.include_inactive, after: page.after, limit: page.take });
  return page.answer(rows, (g) => ({ value: g.name, id: g.id }), claimGroupView);
}

const claimGroups: SetupFamily<ref.ClaimGroupRow, ClaimGroupAnswer> = {
  entity: ENTITY,
  what: 'claim group',
  lock: (ctx, id) => ref.lockClaimGroup(ctx.db, { organizationId: ctx.org.id, id }),
  write: (ctx, current, set) => ref.updateClaimGroupRow(ctx.db, { organizationId: ctx.org.id, id: current.id, set }),
  view: (_ctx, row) => claimGroupView(row),
  inactive: (_ctx, row) => (row.retiredAt ? 'is already retired' : undefined),
};

export async function createClaimGroup(ctx: ServiceContext, input: { name: string }): Promise<ClaimGroupAnswer> {
  const r = new Refusals();
  const name = visibleText(r, input.name, '/name', 200);
  r.throwIfAny();
  return createdRecord(ctx, claimGroups, await insertClaimGroup(ctx.db, { organizationId: ctx.org.id, name }));
}

export async function updateClaimGroup(ctx: ServiceContext, input: RecordChange & { name?: string }): Promise<ClaimGroupAnswer> {
  return changeRecord(ctx, claimGroups, input, (current) => {
    if (current.retiredAt) throw conflict('/id', 'is retired', 'A retired claim group is kept as it was');
    const r = new Refusals();
    const name = visibleText(r, input.name, '/name', 200);
    r.throwIfAny();
    return { name };
  });
}

export async function retireClaimGroup(ctx: ServiceContext, input: RecordChange): Promise<ClaimGroupAnswer> {
  return deactivateRecord(ctx, claimGroups, input, () => ({ retiredAt: ctx.now }));
}
