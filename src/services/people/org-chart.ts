import type { Database } from '../../db/client';
import { findOrgUnit, findPosition, findPositionAssignment, findPrimaryUnitOn } from '../../db/queries/people';
import { systemContextFor } from '../settings/rules';
import { written } from '../settings/records';
import { createOrgUnit as createOrgUnitWith } from './org-units';
import { createPositionAssignment } from './position-assignments';
import { createPosition as createPositionWith, retirePosition } from './positions';

/**
 * The organization chart as other areas read it, and the old set-up signatures `fn(db, { organizationId, ... })`
 * kept as thin wrappers for the demo and test factories until they go through the procedures
 * (settings.orgUnits, settings.positions, settings.positionAssignments). The wrappers run the same
 * services, rules and settings history, acting as the system, and answer the stored rows as before.
 */

/** Name of the org unit of the member's primary position on `day`, or null when none then. */
export async function primaryUnitNameOn(db: Database, q: { organizationId: string; memberId: string; day: string }): Promise<string | null> {
  return (await findPrimaryUnitOn(db, q))?.unitName ?? null;
}

/** @deprecated call settings.orgUnits.create (services/people/org-units.ts createOrgUnit). */
export async function createOrgUnit(db: Database, input: { organizationId: string; code: string; name: string; parentId?: string | null }) {
  const ctx = await systemContextFor(db, input.organizationId);
  const unit = await createOrgUnitWith(ctx, { code: input.code, name: input.name, parent_id: input.parentId ?? null });
  return written(await findOrgUnit(db, { organizationId: input.organizationId, id: unit.id }));
}

/** @deprecated call settings.positions.create (services/people/positions.ts createPosition). */
export async function createPosition(
  db: Database,
  input: { organizationId: string; orgUnitId: string; title: string; isUnitHead?: boolean; retiredAt?: Date | null },
) {
  const ctx = await systemContextFor(db, input.organizationId);
  const position = await createPositionWith(ctx, { org_unit_id: input.orgUnitId, title: input.title, is_unit_head: input.isUnitHead ?? false });
  if (input.retiredAt) {
    await retirePosition({ ...ctx, now: input.retiredAt }, { id: position.id, expected_revision: position.revision });
  }
  return written(await findPosition(db, { organizationId: input.organizationId, id: position.id }));
}

/**
 * @deprecated call settings.positionAssignments.create (services/people/position-assignments.ts).
 * From `validFrom` (inclusive) to `validTo` (inclusive, open when absent); a new primary assignment
 * ends the member's open primary one the day before.
 */
export async function assignPosition(
  db: Database,
  input: { organizationId: string; memberId: string; positionId: string; validFrom: string; validTo?: string | null; isPrimary?: boolean },
) {
  const ctx = await systemContextFor(db, input.organizationId);
  const assignment = await createPositionAssignment(ctx, {
    member_id: input.memberId,
    position_id: input.positionId,
    valid_from: input.validFrom,
    valid_to: input.validTo ?? null,
    is_primary: input.isPrimary ?? true,
  });
  return written(await findPositionAssignment(db, { organizationId: input.organizationId, id: assignment.id }));
}
