import type { Database } from '../../db/client';
import { endPrimaryAssignmentsBefore, findPrimaryUnitOn } from '../../db/queries/people';
import { orgUnits, positionAssignments, positions } from '../../db/schema';
import { AppError, validationError } from '../../lib/errors';

/** Set-up of the organization chart (demo, tests, later the people operations). */

export async function createOrgUnit(db: Database, input: { organizationId: string; code: string; name: string; parentId?: string | null }) {
  if (!input.name.trim()) throw validationError('/name', 'must not be blank');
  const [row] = await db
    .insert(orgUnits)
    .values({ organizationId: input.organizationId, code: input.code.trim(), name: input.name.trim(), parentId: input.parentId ?? null })
    .returning();
  if (!row) throw new AppError('internal');
  return row;
}

export async function createPosition(
  db: Database,
  input: { organizationId: string; orgUnitId: string; title: string; isUnitHead?: boolean; retiredAt?: Date | null },
) {
  if (!input.title.trim()) throw validationError('/title', 'must not be blank');
  const [row] = await db
    .insert(positions)
    .values({
      organizationId: input.organizationId,
      orgUnitId: input.orgUnitId,
      title: input.title.trim(),
      isUnitHead: input.isUnitHead ?? false,
      retiredAt: input.retiredAt ?? null,
    })
    .returning();
  if (!row) throw new AppError('internal');
  return row;
}

/**
 * Assigns a member to a position from `validFrom` (inclusive) to `validTo` (inclusive, open when
 * absent). A new primary assignment ends the member's open primary one the day before, so a member
 * has at most one primary position on any day.
 */
export async function assignPosition(
  db: Database,
  input: { organizationId: string; memberId: string; positionId: string; validFrom: string; validTo?: string | null; isPrimary?: boolean },
) {
  const isPrimary = input.isPrimary ?? true;
  if (input.validTo && input.validTo < input.validFrom) throw validationError('/valid_to', 'must not be before valid_from');
  if (isPrimary) await endPrimaryAssignmentsBefore(db, { organizationId: input.organizationId, memberId: input.memberId, day: input.validFrom });
  const [row] = await db
    .insert(positionAssignments)
    .values({
      organizationId: input.organizationId,
      memberId: input.memberId,
      positionId: input.positionId,
      isPrimary,
      validFrom: input.validFrom,
      validTo: input.validTo ?? null,
    })
    .returning();
  if (!row) throw new AppError('internal');
  return row;
}

/** Name of the org unit of the member's primary position on `day`, or null when none then. */
export async function primaryUnitNameOn(db: Database, q: { organizationId: string; memberId: string; day: string }): Promise<string | null> {
  return (await findPrimaryUnitOn(db, q))?.unitName ?? null;
}
