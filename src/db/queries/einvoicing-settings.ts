import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../client';
import { einvoices, einvoicingSettings, organizations } from '../schema';

/**
 * Whether another organization than `organizationId` e-invoices under seller TIN `tin` with
 * credentials MyInvois has accepted: its settings are on with a client id and MyInvois has taken at
 * least one of its documents (an e-invoice with LHDN's UUID). The one deliberate look across
 * organizations: such a TIN may be claimed again, in the same MyInvois environment (a sandbox's
 * credentials prove nothing in production), only with credentials MyInvois accepts. A TIN merely
 * typed into another organization's settings (never verified by MyInvois) does not count, so a
 * squatter cannot block its owner. Answers a boolean, never the other organization.
 */
export async function tinEinvoicedElsewhere(db: Database, q: { organizationId: string; tin: string; environment: string }): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`select exists (
      select 1 from ${einvoicingSettings} s join ${organizations} o on o.id = s.organization_id
      where s.enabled and s.client_id is not null and s.organization_id <> ${q.organizationId} and s.environment = ${q.environment}
        and upper(o.seller->>'tin') = upper(${q.tin})
        and exists (select 1 from ${einvoices} e where e.organization_id = o.id and e.uuid is not null)
    ) as found`,
  );
  return Boolean(row?.found);
}
