import { insertClaimGroup } from '../../db/queries/claims';
import * as ref from '../../db/queries/expense-reference-data';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { decodePage, pageOf } from '../settings/page';
import { conflict, isoOrNull, notFound, pageLimit, visibleText, written } from '../settings/records';

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
  const after = await decodePage(ctx, ENTITY, input, filters);
  const limit = pageLimit(input);
  const rows = await ref.listClaimGroups(ctx.db, { organizationId: ctx.org.id, includeRetired: filters.include_inactive, after, limit: limit + 1 });
  return pageOf(ctx, ENTITY, filters, rows, limit, (g) => ({ value: g.name, id: g.id }), claimGroupView);
}

export async function createClaimGroup(ctx: ServiceContext, input: { name: string }): Promise<ClaimGroupAnswer> {
  const r = new Refusals();
  const name = visibleText(r, input.name, '/name', 200);
  r.throwIfAny();
  const row = written(await insertClaimGroup(ctx.db, { organizationId: ctx.org.id, name }));
  const after = claimGroupView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', after });
  return after;
}

export async function updateClaimGroup(ctx: ServiceContext, input: { id: string; expected_revision: number; name?: string }): Promise<ClaimGroupAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const current = await ref.lockClaimGroup(ctx.db, q);
  if (!current) throw notFound('claim group');
  checkRevision(current.revision, input.expected_revision);
  if (current.retiredAt) throw conflict('/id', 'is retired', 'A retired claim group is kept as it was');
  const r = new Refusals();
  const name = visibleText(r, input.name, '/name', 200);
  r.throwIfAny();
  const row = written(await ref.updateClaimGroupRow(ctx.db, { ...q, set: { name } }));
  const before = claimGroupView(current);
  const after = claimGroupView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before, after });
  return after;
}

export async function retireClaimGroup(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<ClaimGroupAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const current = await ref.lockClaimGroup(ctx.db, q);
  if (!current) throw notFound('claim group');
  checkRevision(current.revision, input.expected_revision);
  if (current.retiredAt) throw conflict('/id', 'is already retired', 'The claim group is already retired');
  const row = written(await ref.updateClaimGroupRow(ctx.db, { ...q, set: { retiredAt: ctx.now } }));
  const before = claimGroupView(current);
  const after = claimGroupView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before, after });
  return after;
}
