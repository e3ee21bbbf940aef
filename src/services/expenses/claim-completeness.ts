/**
 * Whether a draft claim may be submitted (docs/design.md §11 and §17): at least one active line, and
 * every active line allocated on every axis the organization requires on claims — or, when it
 * requires none, on at least one axis, since every sign-off is one analytic account's share.
 */
import { listRequiredClaimAxes } from '../../db/queries/approval-engine';
import { listClaimLines, listLineShares } from '../../db/queries/claims';
import type { ServiceContext } from '../context';

export async function claimLineGaps(ctx: ServiceContext, claimId: string): Promise<{ activeLines: number; incomplete: string[] }> {
  const organizationId = ctx.org.id;
  const lines = (await listClaimLines(ctx.db, { organizationId, claimId })).filter((l) => !l.withdrawn);
  if (lines.length === 0) return { activeLines: 0, incomplete: [] };
  const [shares, required] = await Promise.all([
    listLineShares(ctx.db, { organizationId, lineIds: lines.map((l) => l.id) }),
    listRequiredClaimAxes(ctx.db, { organizationId }),
  ]);
  const incomplete: string[] = [];
  for (const line of lines) {
    const axes = new Set(shares.filter((s) => s.lineId === line.id).map((s) => s.axisId));
    if (required.length === 0) {
      if (axes.size === 0) incomplete.push(`line ${line.lineNo} is allocated to no analytic account`);
      continue;
    }
    const missing = required.filter((a) => !axes.has(a.id)).map((a) => a.code);
    if (missing.length) incomplete.push(`line ${line.lineNo} has no share on ${missing.join(', ')}`);
  }
  return { activeLines: lines.length, incomplete };
}
