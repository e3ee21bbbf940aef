/**
 * The organization chart on one day, as the superior walk reads it (docs/design.md §17): from a
 * position go to its reports-to position, else its unit's head, else up the parent units' heads.
 * Pure: built from the rows `loadOrgChart` reads.
 */
import type { OrgChartRows } from '../../../db/queries/approval-engine';

export interface ChartPosition {
  id: string;
  orgUnitId: string;
  isUnitHead: boolean;
  reportsToPositionId: string | null;
  retired: boolean;
}

export class OrgChart {
  readonly positions = new Map<string, ChartPosition>();
  readonly units = new Map<string, { id: string; parentId: string | null; name: string }>();
  /** Members holding each position on the day (primary or not). */
  readonly holders = new Map<string, string[]>();
  /** Each member's primary position on the day. */
  readonly primaryPosition = new Map<string, string>();
  readonly active = new Set<string>();
  /** Each unit's head positions, oldest first. */
  private readonly heads = new Map<string, ChartPosition[]>();

  constructor(rows: OrgChartRows, now: Date) {
    for (const u of rows.unitRows) this.units.set(u.id, u);
    for (const p of rows.positionRows) {
      this.positions.set(p.id, {
        id: p.id,
        orgUnitId: p.orgUnitId,
        isUnitHead: p.isUnitHead,
        reportsToPositionId: p.reportsToPositionId,
        retired: p.retiredAt !== null && new Date(p.retiredAt) <= now,
      });
    }
    for (const p of this.positions.values()) {
      if (!p.isUnitHead) continue;
      const list = this.heads.get(p.orgUnitId);
      if (list) list.push(p);
      else this.heads.set(p.orgUnitId, [p]);
    }
    for (const h of rows.holderRows) {
      const list = this.holders.get(h.positionId) ?? [];
      if (!list.includes(h.memberId)) list.push(h.memberId);
      this.holders.set(h.positionId, list);
      if (h.isPrimary) this.primaryPosition.set(h.memberId, h.positionId);
    }
    for (const m of rows.memberRows) if (m.active) this.active.add(m.id);
  }

  /** The unit's head position: a current one first, else a retired one (the walk then names it retired). */
  headOf(unitId: string): ChartPosition | undefined {
    const heads = this.heads.get(unitId) ?? [];
    return heads.find((p) => !p.retired) ?? heads[0];
  }
}

/** One step of the walk: the next position up, or the units passed without a head, or the root. */
export interface WalkStep {
  next?: ChartPosition;
  /** Units on the way that have no head position (each a `no_unit_head` gap), with the position the walk stood on. */
  headless: { unitId: string; fromPositionId: string }[];
}

/** The position above `from` (reports-to, else the unit's head, else a parent unit's head). */
export function stepUp(chart: OrgChart, from: ChartPosition): WalkStep {
  const headless: WalkStep['headless'] = [];
  if (from.reportsToPositionId) {
    const next = chart.positions.get(from.reportsToPositionId);
    if (next) return { next, headless };
  }
  let unitId: string | null = from.orgUnitId;
  // A unit head's superior is the parent unit's head; anyone else's is their own unit's head.
  if (from.isUnitHead) unitId = chart.units.get(from.orgUnitId)?.parentId ?? null;
  const seen = new Set<string>();
  while (unitId && !seen.has(unitId)) {
    seen.add(unitId);
    const head = chart.headOf(unitId);
    if (head && head.id !== from.id) return { next: head, headless };
    if (!head) headless.push({ unitId, fromPositionId: from.id });
    unitId = chart.units.get(unitId)?.parentId ?? null;
  }
  return { headless };
}
