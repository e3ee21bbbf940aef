import type { Database } from '../../src/db/client';
import { findOrganization } from '../../src/db/queries/organizations';
import { PERMISSIONS } from '../../src/domain/permissions';
import { systemContext, type ServiceContext } from '../../src/services/context';

/**
 * A service context for a test acting on an organization as one of its members (the system actor
 * on the member's behalf, every permission), as the CLI and the demo build theirs. `db` may be a
 * transaction.
 */
export async function contextFor(db: Database, organizationId: string, memberId: string, now: Date = new Date()): Promise<ServiceContext> {
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new Error(`no organization ${organizationId}`);
  return systemContext(db, org, now, memberId, PERMISSIONS);
}
