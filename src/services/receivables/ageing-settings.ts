/**
 * settings.ageing: the organization's ageing buckets, one record. Without a row it answers the
 * defaults (30, 60, 90, 120: current, 1–30, 31–60, 61–90, 91–120, over 120) at revision 1; the first
 * update (If-Match "1") writes the row at revision 2. Edges are increasing positive whole numbers of
 * days past due. Changes are serialized per organization and kept in the settings history.
 */
import { ageingBucketKeys, DEFAULT_AGEING_EDGES, MAX_AGEING_EDGE, MAX_AGEING_EDGES, type AgeingSettings } from '../../contract/receivables/reports';
import { lockSetupScope } from '../../db/queries/keyset';
import { findAgeingSettings, upsertAgeingSettings, type AgeingSettingsRow } from '../../db/queries/receivables-reports';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { leavesUnchanged, written } from '../settings/setup';

const ENTITY = 'ageingSettings';

function view(row: AgeingSettingsRow | undefined): AgeingSettings {
  const edges = row ? row.edges : [...DEFAULT_AGEING_EDGES];
  return { edges, bucket_keys: ageingBucketKeys(edges), revision: row?.revision ?? 1 };
}

export async function getAgeingSettings(ctx: ServiceContext): Promise<AgeingSettings> {
  return view(await findAgeingSettings(ctx.db, { organizationId: ctx.org.id }));
}

/** The edges the reports age by. */
export async function ageingEdges(ctx: ServiceContext): Promise<number[]> {
  return (await getAgeingSettings(ctx)).edges;
}

function checkEdges(r: Refusals, edges: readonly number[]): void {
  if (!r.check(edges.length >= 1 && edges.length <= MAX_AGEING_EDGES, '/edges', `must name 1 to ${MAX_AGEING_EDGES} edges`)) return;
  edges.forEach((e, i) => {
    if (!r.check(Number.isInteger(e) && e >= 1 && e <= MAX_AGEING_EDGE, `/edges/${i}`, `must be a whole number of days from 1 to ${MAX_AGEING_EDGE}`)) return;
    if (i > 0) r.check(e > edges[i - 1]!, `/edges/${i}`, `must be greater than the edge before it (${edges[i - 1]})`);
  });
}

export async function updateAgeingSettings(ctx: ServiceContext, input: { edges: number[]; expected_revision: number }): Promise<AgeingSettings> {
  const r = new Refusals();
  checkEdges(r, input.edges);
  await lockSetupScope(ctx.db, ctx.org.id, 'ageing-settings');
  const before = view(await findAgeingSettings(ctx.db, { organizationId: ctx.org.id, forUpdate: true }));
  checkRevision(before.revision, input.expected_revision);
  r.throwIfAny();
  if (leavesUnchanged(before, { edges: input.edges })) return before;
  const after = view(written(await upsertAgeingSettings(ctx.db, { organizationId: ctx.org.id, edges: [...input.edges], revision: before.revision + 1 })));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: ctx.org.id, action: 'update', before, after });
  return after;
}
