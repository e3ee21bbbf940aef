/**
 * What every new organization is given at creation, so it can invoice and take claims at once: its
 * own copies of the default workflows, the default chart of accounts and SST tax codes, and the
 * default approval grants. createOrganization writes each entry of this list, in this order, in its
 * own transaction, acting as the system (each record's creation is kept in the settings history).
 *
 * Adding a default means adding a line here: nothing registers itself by being imported.
 */
import type { Database } from '../../db/client';
import { insertDefaultApprovalGrants } from '../approvals-setup/defaults';
import type { ServiceContext } from '../context';
import { insertDefaultReferenceData } from '../settings/defaults';
import { systemContextFor } from '../settings/setup';
import { insertDefaultWorkflows } from '../workflow/workflows';

export interface OrganizationDefault {
  /** What it writes, for an error message or a listing. */
  what: string;
  write(ctx: ServiceContext): Promise<void>;
}

export const ORGANIZATION_DEFAULTS: readonly OrganizationDefault[] = [
  { what: 'the default receivables and claim workflows', write: insertDefaultWorkflows },
  { what: 'the default chart of accounts and SST tax codes', write: insertDefaultReferenceData },
  { what: 'the default approval grants', write: insertDefaultApprovalGrants },
];

/** Writes every default of ORGANIZATION_DEFAULTS for a just-created organization. */
export async function writeOrganizationDefaults(db: Database, organizationId: string): Promise<void> {
  const ctx = await systemContextFor(db, organizationId);
  for (const entry of ORGANIZATION_DEFAULTS) await entry.write(ctx);
}
