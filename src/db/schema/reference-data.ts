import {
  boolean,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { customers } from './customers';
import { organizations } from './organizations';

/** Chart of accounts of an organization. */
export const accounts = pgTable(
  'accounts',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ['asset', 'liability', 'equity', 'revenue', 'expense'] }).notNull(),
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), uniqueIndex('accounts_org_code').on(t.organizationId, t.code)],
);

/**
 * Tax codes. `tax_type` is a MyInvois tax type (data/tax-types.json): E needs an exemption reason on
 * the line. `tax_pack_kind` names the tax regime the code belongs to (`my_sst` for Malaysian SST).
 */
export const taxCodes = pgTable(
  'tax_codes',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    rate: numeric('rate', { precision: 20, scale: 10 }).notNull(),
    taxType: text('tax_type').notNull(),
    taxPackKind: text('tax_pack_kind').notNull(),
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), uniqueIndex('tax_codes_org_code').on(t.organizationId, t.code)],
);

/** Analytic axes (department, project, ...); at most one per organization is the project axis. */
export const analyticAxes = pgTable(
  'analytic_axes',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    isProjectAxis: boolean('is_project_axis').notNull().default(false),
    /** Every claim line must be allocated on this axis (its shares summing to 100) to be submitted. */
    requiredOnClaims: boolean('required_on_claims').notNull().default(false),
    /** The accounts of an inactive axis are refused on new lines, as inactive accounts are. */
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('analytic_axes_org_code').on(t.organizationId, t.code),
    uniqueIndex('analytic_axes_one_project_axis').on(t.organizationId).where(sql`${t.isProjectAxis}`),
  ],
);

/** An account on an axis: a department, or a project (code and name) on the project axis. */
export const analyticAccounts = pgTable(
  'analytic_accounts',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    axisId: uuid('axis_id').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('analytic_accounts_org_axis_code').on(t.organizationId, t.axisId, t.code),
    foreignKey({ columns: [t.organizationId, t.axisId], foreignColumns: [analyticAxes.organizationId, analyticAxes.id] }),
  ],
);

import { CUSTOM_FIELD_TYPES, type CustomFieldType } from '../../domain/receivables';
export { CUSTOM_FIELD_TYPES, type CustomFieldType };

/** Custom fields an organization defines for a record type; values travel as strings. */
export const customFieldDefinitions = pgTable(
  'custom_field_definitions',
  {
    organizationId: uuid('organization_id').notNull().references(() => organizations.id),
    id: uuid('id').notNull().defaultRandom(),
    recordType: text('record_type', { enum: ['receivable_document', 'customer', 'expense_claim'] }).notNull(),
    key: text('key').notNull(),
    label: text('label').notNull(),
    type: text('type', { enum: CUSTOM_FIELD_TYPES }).notNull(),
    options: text('options').array().notNull().default(sql`ARRAY[]::text[]`),
    required: boolean('required').notNull().default(false),
    active: boolean('active').notNull().default(true),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    uniqueIndex('custom_field_definitions_org_type_key').on(t.organizationId, t.recordType, t.key),
  ],
);

/**
 * Delivery lines and sales return lines of a customer, in base units. `quantity_invoiced` grows when
 * a document line (draft included) takes part of the line, so two drafts cannot take the same units.
 */
export const tradeLines = pgTable(
  'trade_lines',
  {
    organizationId: uuid('organization_id').notNull(),
    id: uuid('id').notNull().defaultRandom(),
    customerId: uuid('customer_id').notNull(),
    kind: text('kind', { enum: ['delivery', 'sales_return'] }).notNull(),
    reference: text('reference').notNull(),
    description: text('description').notNull(),
    unitCode: text('unit_code'),
    quantity: numeric('quantity', { precision: 20, scale: 10 }).notNull(),
    quantityInvoiced: numeric('quantity_invoiced', { precision: 20, scale: 10 }).notNull().default('0'),
    lineNo: integer('line_no').notNull().default(1),
    /** An inactive trade line is refused on new document lines. */
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revision: integer('revision').notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.id] }),
    index('trade_lines_customer_idx').on(t.organizationId, t.customerId),
    foreignKey({ columns: [t.organizationId, t.customerId], foreignColumns: [customers.organizationId, customers.id] }),
  ],
);
