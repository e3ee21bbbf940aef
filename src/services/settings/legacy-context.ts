import type { Database } from '../../db/client';
import { findOrganization } from '../../db/queries/organizations';
import { PERMISSIONS } from '../../domain/permissions';
import { AppError } from '../../lib/errors';
import { SYSTEM_CREDENTIAL_ID, systemContext, type ServiceContext } from '../context';

/**
 * The context the compatibility wrappers of the old set-up signatures (`fn(db, { organizationId, ... })`,
 * still called by the demo and by test factories) run the set-up services with: the system acting on
 * the organization, recorded in the settings history with `actor_via: system` and the nil member id
 * (SYSTEM_CREDENTIAL_ID). Remove with the last caller of an old signature.
 */
export async function legacySystemContext(db: Database, organizationId: string, now: Date = new Date()): Promise<ServiceContext> {
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found', { detail: 'No such organization' });
  return systemContext(
    db,
    { id: org.id, name: org.name, baseCurrency: org.baseCurrency, timeZone: org.timeZone, recordLanguages: org.recordLanguages, seller: org.seller },
    now,
    SYSTEM_CREDENTIAL_ID,
    PERMISSIONS,
  );
}
