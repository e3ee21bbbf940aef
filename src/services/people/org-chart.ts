import type { Database } from '../../db/client';
import { listPrimaryUnitAssignments } from '../../db/queries/people';

/** The organization chart as other areas read it (set-up goes through settings.orgUnits, positions, positionAssignments). */

/** Name of the org unit of the member's primary position on `day`, or null when none then. */
export async function primaryUnitNameOn(db: Database, q: { organizationId: string; memberId: string; day: string }): Promise<string | null> {
  return (await primaryUnitNamesOn(db, { organizationId: q.organizationId, memberIds: [q.memberId] }))(q.memberId, q.day);
}

/**
 * The units of several members' primary positions from one statement whatever their number: answers
 * a lookup of the name of the unit of a member's primary position on a day, or null when none then
 * (the assignment valid on the day with the latest valid_from, then the latest created, as
 * findPrimaryUnitOn picks). The claim answer and the claim list both look units up through it.
 */
export async function primaryUnitNamesOn(
  db: Database,
  q: { organizationId: string; memberIds: string[] },
): Promise<(memberId: string, day: string) => string | null> {
  const rows = await listPrimaryUnitAssignments(db, { organizationId: q.organizationId, memberIds: [...new Set(q.memberIds)] });
  const byMember = new Map<string, typeof rows>();
  for (const row of rows) {
    const list = byMember.get(row.memberId);
    if (list) list.push(row);
    else byMember.set(row.memberId, [row]);
  }
  return (memberId, day) =>
    byMember.get(memberId)?.find((a) => a.validFrom <= day && (a.validTo === null || a.validTo >= day))?.unitName ?? null;
}
