import { and, eq, isNotNull, or, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../client';
import { customers, einvoices, einvoicingSettings, organizations } from '../schema';

export type EinvoicingSettingsRow = typeof einvoicingSettings.$inferSelect;

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
      where s.enabled and (s.client_id is not null or s.login = 'intermediary') and s.organization_id <> ${q.organizationId} and s.environment = ${q.environment}
        and upper(o.seller->>'tin') = upper(${q.tin})
        and exists (select 1 from ${einvoices} e where e.organization_id = o.id and e.uuid is not null)
    ) as found`,
  );
  return Boolean(row?.found);
}

/** The organization's e-invoicing settings row, if it has one; locked with `forUpdate`. */
export async function findEinvoicingSettings(db: Database, q: { organizationId: string; forUpdate?: boolean }): Promise<EinvoicingSettingsRow | undefined> {
  const base = db.select().from(einvoicingSettings).where(eq(einvoicingSettings.organizationId, q.organizationId));
  const [row] = q.forUpdate ? await base.for('update') : await base;
  return row;
}

/** Writes the organization's e-invoicing settings whole (inserted the first time). */
export async function upsertEinvoicingSettings(db: Database, values: typeof einvoicingSettings.$inferInsert): Promise<EinvoicingSettingsRow | undefined> {
  const { organizationId, ...set } = values;
  void organizationId;
  const [row] = await db.insert(einvoicingSettings).values(values).onConflictDoUpdate({ target: einvoicingSettings.organizationId, set }).returning();
  return row;
}

/** Points one organization's simulator environment at another address. */
export async function updateEinvoicingUrls(db: Database, q: { organizationId: string; urls: EinvoicingSettingsRow['urls'] }): Promise<void> {
  await db.update(einvoicingSettings).set({ urls: q.urls }).where(eq(einvoicingSettings.organizationId, q.organizationId));
}

/**
 * Every organization e-invoicing against the simulator with a client id and secret, with its seller
 * identity: the in-process simulator registers them again each time it starts (one look across
 * organizations, made by the server itself, never for a caller).
 */
export async function findSimulatorOrganizations(db: Database) {
  return db
    .select({ settings: einvoicingSettings, seller: organizations.seller, name: organizations.name })
    .from(einvoicingSettings)
    .innerJoin(organizations, eq(organizations.id, einvoicingSettings.organizationId))
    .where(
      and(
        eq(einvoicingSettings.environment, 'simulator'),
        or(and(isNotNull(einvoicingSettings.clientId), isNotNull(einvoicingSettings.clientSecretSealed)), eq(einvoicingSettings.login, 'intermediary')),
      ),
    );
}

/** The organization's customers with a TIN (their identity as MyInvois would know them). */
export async function findCustomersWithTin(db: Database, q: { organizationId: string }) {
  return db
    .select({ tin: customers.tin, registrationNo: customers.registrationNo, registrationType: customers.registrationType, legalName: customers.legalName })
    .from(customers)
    .where(and(eq(customers.organizationId, q.organizationId), isNotNull(customers.tin)));
}
