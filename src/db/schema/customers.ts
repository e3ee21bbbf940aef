import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

export interface PostalAddress {
  line1?: string;
  line2?: string;
  city?: string;
  postcode?: string;
  state?: string;
}

export const customers = pgTable(
  'customers',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    code: text('code').notNull(),
    legalName: text('legal_name').notNull(),
    partyKind: text('party_kind', { enum: ['organization', 'individual'] }).notNull(),
    address: jsonb('address').$type<PostalAddress>().notNull().default({}),
    countryCode: text('country_code').notNull().default('MY'),
    currency: text('currency').notNull(),
    paymentTermsDays: integer('payment_terms_days').notNull().default(30),
    isActive: boolean('is_active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
    customFields: jsonb('custom_fields').$type<Record<string, string>>().notNull().default({}),
    defaultRevenueAccountId: uuid('default_revenue_account_id'),
    defaultTaxCodeId: uuid('default_tax_code_id'),
    email: text('email'),
    phone: text('phone'),
    registrationNo: text('registration_no'),
    registrationType: text('registration_type', { enum: ['brn', 'nric', 'passport', 'army'] }),
    sstRegistrationNo: text('sst_registration_no'),
    tin: text('tin'),
    /** Payment reminders are never sent to this customer, whatever the organization's schedule. */
    remindersOff: boolean('reminders_off').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('customers_org_code').on(t.organizationId, t.code),
    // Keyset pagination of GET /v1/receivables/customers: one (organization, sort key, id) index per
    // sort. Codes compare bytewise; legal names case-insensitively (lower, then bytewise).
    index('customers_org_code_c').on(t.organizationId, sql`(${t.code} collate "C")`, t.id),
    index('customers_org_legal_name').on(t.organizationId, sql`(lower(${t.legalName}) collate "C")`, t.id),
    index('customers_org_created').on(t.organizationId, t.createdAt, t.id),
    // The list's substring search (q) on code or legal name (pg_trgm, migration 0000_extensions).
    index('customers_search_trgm').using('gin', t.code.op('gin_trgm_ops'), t.legalName.op('gin_trgm_ops')),
    // The receivables list's q on the customer's name, `lower(legal_name) like lower(term)` (see
    // nameMatches in queries/receivable-document-list), when an organization has many customers.
    index('customers_legal_name_lower_trgm').using('gin', sql`lower(${t.legalName}) gin_trgm_ops`),
  ],
);

/**
 * The counterparty map: a customer of this organization that is (for a dated period) another
 * company of a group the organization belongs to. `is_group_company` is decided from it as at the
 * organization's today, never stored on the customer.
 */
export const counterpartyMappings = pgTable(
  'counterparty_mappings',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    customerId: uuid('customer_id').notNull(),
    companyOrganizationId: uuid('company_organization_id').notNull().references(() => organizations.id),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    validTo: date('valid_to', { mode: 'string' }),
    /** A deactivated mapping (entered in error) no longer counts; ending one sets valid_to instead. */
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('counterparty_mappings_customer_idx').on(t.organizationId, t.customerId),
    foreignKey({ columns: [t.organizationId, t.customerId], foreignColumns: [customers.organizationId, customers.id] }),
  ],
);
