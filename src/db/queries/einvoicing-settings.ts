import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../client';
import { einvoicingSettings, organizations } from '../schema';

/**
 * Whether another organization than `organizationId` e-invoices (settings enabled with a client id)
 * under seller TIN `tin`. The one deliberate look across organizations: a TIN already claimed for
 * e-invoicing elsewhere may be claimed again only with credentials MyInvois accepts. Answers a
 * boolean, never the other organization.
 */
export async function tinEinvoicedElsewhere(db: Database, q: { organizationId: string; tin: string }): Promise<boolean> {
  const [row] = await queryRows<{ found: boolean }>(
    db,
    sql`select exists (
      select 1 from ${einvoicingSettings} s join ${organizations} o on o.id = s.organization_id
      where s.enabled and s.client_id is not null and s.organization_id <> ${q.organizationId}
        and upper(o.seller->>'tin') = upper(${q.tin})
    ) as found`,
  );
  return Boolean(row?.found);
}
