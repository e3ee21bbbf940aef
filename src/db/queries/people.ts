import { and, desc, eq, gte, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../client';
import { orgUnits, payoutChannels, positionAssignments, positions } from '../schema';

/** The org unit of the member's primary position on `day` (inclusive dates), or undefined. */
export async function findPrimaryUnitOn(db: Database, q: { organizationId: string; memberId: string; day: string }) {
  const [row] = await db
    .select({ unitId: orgUnits.id, unitName: orgUnits.name, positionId: positions.id, assignmentId: positionAssignments.id })
    .from(positionAssignments)
    .innerJoin(positions, and(eq(positions.organizationId, positionAssignments.organizationId), eq(positions.id, positionAssignments.positionId)))
    .innerJoin(orgUnits, and(eq(orgUnits.organizationId, positions.organizationId), eq(orgUnits.id, positions.orgUnitId)))
    .where(
      and(
        eq(positionAssignments.organizationId, q.organizationId),
        eq(positionAssignments.memberId, q.memberId),
        eq(positionAssignments.isPrimary, true),
        lte(positionAssignments.validFrom, q.day),
        or(isNull(positionAssignments.validTo), gte(positionAssignments.validTo, q.day)),
      ),
    )
    .orderBy(desc(positionAssignments.validFrom), desc(positionAssignments.createdAt))
    .limit(1);
  return row;
}

/** Ends the member's open primary assignments that started before `day`, the day before it. */
export async function endPrimaryAssignmentsBefore(db: Database, q: { organizationId: string; memberId: string; day: string }) {
  await db
    .update(positionAssignments)
    .set({ validTo: sql`(${q.day}::date - 1)` })
    .where(
      and(
        eq(positionAssignments.organizationId, q.organizationId),
        eq(positionAssignments.memberId, q.memberId),
        eq(positionAssignments.isPrimary, true),
        lt(positionAssignments.validFrom, q.day),
        or(isNull(positionAssignments.validTo), gte(positionAssignments.validTo, q.day)),
      ),
    );
}

export async function findPayoutChannel(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(payoutChannels)
    .where(and(eq(payoutChannels.organizationId, q.organizationId), eq(payoutChannels.id, q.id)));
  return row;
}

export async function insertPayoutChannel(db: Database, values: typeof payoutChannels.$inferInsert) {
  const [row] = await db.insert(payoutChannels).values(values).returning();
  if (!row) throw new Error('payout channel insert returned no row');
  return row;
}

export async function deactivatePayoutChannelRow(db: Database, q: { organizationId: string; id: string }) {
  await db
    .update(payoutChannels)
    .set({ active: false })
    .where(and(eq(payoutChannels.organizationId, q.organizationId), eq(payoutChannels.id, q.id)));
}
