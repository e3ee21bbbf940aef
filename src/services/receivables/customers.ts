import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import {
  CUSTOMER_SORT_VALUE_PATTERN,
  findCustomer,
  insertCustomer,
  listCustomers as listCustomerRows,
  lockCustomer,
  updateCustomerRow,
  type CustomerListFilters,
  type CustomerListOrder,
  type CustomerRow,
} from '../../db/queries/customers';
import type { PostalAddress, customers } from '../../db/schema';
import type { CustomerListSort, PartyKind, RegistrationType } from '../../domain/receivables';
import { isCountryCode, isCurrency } from '../../lib/code-lists';
import type { CursorBinding } from '../../lib/cursor';
import { keysetPage } from '../keyset-page';
import { AppError, pointerLabel, notFound, conflict } from '../../lib/errors';
import { notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkCustomFields } from '../custom-fields';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { recordEvent } from '../events/append';

/**
 * Customers of an organization: read, list, create and change (contract 2.3, 4.4; docs/design.md §12).
 * `is_group_company` is never stored: it is read from the counterparty map as at the organization's
 * today. Country codes are ISO 3166-1 alpha-2 (docs/design.md §5). Every create and change through
 * the operations is appended to the settings history in the same transaction.
 */

export function customerView(c: CustomerRow) {
  const address = Object.fromEntries(Object.entries(c.address).filter(([, v]) => typeof v === 'string'));
  return {
    id: c.id,
    code: c.code,
    legal_name: c.legalName,
    party_kind: c.partyKind,
    address,
    country_code: c.countryCode,
    currency: c.currency,
    payment_terms_days: c.paymentTermsDays,
    is_active: c.isActive,
    reminders_off: c.remindersOff,
    is_group_company: c.isGroupCompany,
    revision: c.revision,
    custom_fields: c.customFields,
    default_revenue_account_id: c.defaultRevenueAccountId,
    default_tax_code_id: c.defaultTaxCodeId,
    email: c.email,
    phone: c.phone,
    registration_no: c.registrationNo,
    registration_type: c.registrationType,
    sst_registration_no: c.sstRegistrationNo,
    tin: c.tin,
  };
}

export type CustomerView = ReturnType<typeof customerView>;


export async function getCustomer(ctx: ServiceContext, input: { id: string }): Promise<CustomerView> {
  const row = await findCustomer(ctx.db, { organizationId: ctx.org.id, id: input.id, today: ctx.today });
  if (!row) throw notFound('customer');
  return customerView(row);
}

// ---------------------------------------------------------------------------------------------
// Create and change

/** The fields a caller sends to create a customer (snake_case, as the API has them). */
export interface CustomerCreateInput {
  code: string;
  legal_name: string;
  party_kind?: PartyKind;
  currency?: string;
  country_code?: string;
  payment_terms_days?: number;
  address?: PostalAddress;
  email?: string | null;
  phone?: string | null;
  registration_no?: string | null;
  registration_type?: RegistrationType | null;
  sst_registration_no?: string | null;
  tin?: string | null;
  custom_fields?: Record<string, string>;
  reminders_off?: boolean;
}

/** A change: any create field, plus `is_active`; what is left out stays as it is. */
export interface CustomerUpdateInput extends Partial<CustomerCreateInput> {
  id: string;
  is_active?: boolean;
  /** The revision the caller read (If-Match). */
  expected_revision: number;
}

/** The rules of every field that was sent, collected into one 422 (shape and lengths are the schema's). */
function checkCustomerFields(input: Partial<CustomerCreateInput>): void {
  const r = new Refusals();
  notBlank(r, input.code, '/code');
  notBlank(r, input.legal_name, '/legal_name');
  const terms = input.payment_terms_days;
  if (terms !== undefined) r.check(Number.isInteger(terms) && terms >= 0 && terms <= 365, '/payment_terms_days', 'must be a whole number from 0 to 365');
  if (input.country_code !== undefined) r.check(isCountryCode(input.country_code), '/country_code', 'must be an ISO 3166-1 alpha-2 country code (for example MY)');
  if (input.currency !== undefined) r.check(isCurrency(input.currency), '/currency', 'must be an ISO 4217 currency code');
  r.throwIfAny();
}

async function checkCustomerCustomFields(db: Database, organizationId: string, values: Record<string, string>): Promise<void> {
  const errors = await checkCustomFields(db, { organizationId, recordType: 'customer', values });
  if (errors.length) {
    throw new AppError('custom_field_invalid', { detail: errors.map((e) => `${pointerLabel(e.pointer)}: ${e.detail}`).join('; '), errors });
  }
}

/** One answer for a code in use, whether found by an earlier request or raced by a concurrent one. */
function codeConflict(e: unknown, code: string | undefined): unknown {
  if (isUniqueViolation(e, 'customers_org_code')) {
    return conflict('/code', 'is already in use', `A customer with the code ${code} already exists`);
  }
  return e;
}

/** Input fields onto columns: only what was sent, text trimmed where it is an identity. */
function columnsOf(input: Partial<CustomerCreateInput> & { is_active?: boolean }): Partial<typeof customers.$inferInsert> {
  const out: Partial<typeof customers.$inferInsert> = {};
  if (input.code !== undefined) out.code = input.code.trim();
  if (input.legal_name !== undefined) out.legalName = input.legal_name.trim();
  if (input.party_kind !== undefined) out.partyKind = input.party_kind;
  if (input.currency !== undefined) out.currency = input.currency;
  if (input.country_code !== undefined) out.countryCode = input.country_code;
  if (input.payment_terms_days !== undefined) out.paymentTermsDays = input.payment_terms_days;
  if (input.is_active !== undefined) out.isActive = input.is_active;
  if (input.address !== undefined) out.address = input.address;
  if (input.email !== undefined) out.email = input.email;
  if (input.phone !== undefined) out.phone = input.phone;
  if (input.registration_no !== undefined) out.registrationNo = input.registration_no;
  if (input.registration_type !== undefined) out.registrationType = input.registration_type;
  if (input.sst_registration_no !== undefined) out.sstRegistrationNo = input.sst_registration_no;
  if (input.tin !== undefined) out.tin = input.tin;
  if (input.custom_fields !== undefined) out.customFields = input.custom_fields;
  if (input.reminders_off !== undefined) out.remindersOff = input.reminders_off;
  return out;
}

/** Checks and inserts; defaults: organization, MY, the base currency, 30 days, active. */
async function insertChecked(db: Database, org: { id: string; baseCurrency: string }, input: CustomerCreateInput) {
  const values = columnsOf(input);
  try {
    const row = await insertCustomer(db, {
      partyKind: 'organization',
      currency: org.baseCurrency,
      countryCode: 'MY',
      paymentTermsDays: 30,
      ...values,
      code: values.code!,
      legalName: values.legalName!,
      organizationId: org.id,
    });
    if (!row) throw new AppError('internal');
    return row;
  } catch (e) {
    throw codeConflict(e, values.code);
  }
}

/**
 * A caller creates a customer of their own organization (POST /v1/receivables/customers and
 * `receivables.customers.create`). A code already in use is 409 `conflict`, also when a concurrent
 * request took it first. A new customer is in no counterparty map yet, so it is not a group company.
 */
export async function createCustomerFor(ctx: ServiceContext, input: CustomerCreateInput): Promise<CustomerView> {
  checkCustomerFields(input);
  await checkCustomerCustomFields(ctx.db, ctx.org.id, input.custom_fields ?? {});
  const row = await insertChecked(ctx.db, ctx.org, input);
  const view = customerView({ ...row, isGroupCompany: false });
  await recordSettingsChange(ctx, { entity: 'customers', record_id: row.id, action: 'create', before: null, after: view });
  await recordEvent(ctx, 'receivables.customer.created', { type: 'customer', id: view.id, revision: view.revision }, { code: view.code, is_active: view.is_active });
  return view;
}

/**
 * Changes a customer (PATCH /v1/receivables/customers/{id}, `receivables.customers.update`): the row
 * is locked, then the caller's revision compared (409 `revision_mismatch` when stale), then the
 * fields sent are checked and written with the revision bumped. A change that changes nothing
 * answers the customer as it is, revision unchanged.
 */
export async function updateCustomer(ctx: ServiceContext, input: CustomerUpdateInput): Promise<CustomerView> {
  const { id, expected_revision, ...fields } = input;
  const organizationId = ctx.org.id;
  const locked = await lockCustomer(ctx.db, { organizationId, id });
  if (!locked) throw notFound('customer');
  checkRevision(locked.revision, expected_revision);
  checkCustomerFields(fields);
  if (fields.custom_fields !== undefined) await checkCustomerCustomFields(ctx.db, organizationId, fields.custom_fields);

  const before = await findCustomer(ctx.db, { organizationId, id, today: ctx.today });
  if (!before) throw notFound('customer');
  const changes = columnsOf(fields);
  const changed = Object.entries(changes).some(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k as keyof typeof before]));
  if (!changed) return customerView(before);

  try {
    await updateCustomerRow(ctx.db, { organizationId, id }, { ...changes, revision: locked.revision + 1 });
  } catch (e) {
    throw codeConflict(e, changes.code);
  }
  const after = await findCustomer(ctx.db, { organizationId, id, today: ctx.today });
  if (!after) throw new AppError('internal');
  const view = customerView(after);
  await recordSettingsChange(ctx, { entity: 'customers', record_id: id, action: 'update', before: customerView(before), after: view });
  await recordEvent(ctx, 'receivables.customer.updated', { type: 'customer', id, revision: view.revision }, { code: view.code, is_active: view.is_active });
  return view;
}

// ---------------------------------------------------------------------------------------------
// List

export interface ListCustomersInput {
  q?: string;
  is_active?: boolean;
  group?: 'only' | 'none';
  sort?: CustomerListSort;
  order?: CustomerListOrder;
  limit?: number;
  cursor?: string;
}

export const DEFAULT_CUSTOMER_LIMIT = 25;

/**
 * One page of the organization's customers, keyset-ordered by (sort key, id): code ascending by
 * default. The cursor is signed and bound to sort, order and filters (another query's cursor is 422
 * at /query/cursor, a forged one 400), like the receivables list's.
 */
export async function listCustomers(ctx: ServiceContext, input: ListCustomersInput) {
  const sort = input.sort ?? 'code';
  const order = input.order ?? 'asc';
  const limit = input.limit ?? DEFAULT_CUSTOMER_LIMIT;
  const filters: CustomerListFilters = { q: input.q, isActive: input.is_active, group: input.group };
  // Bound to everything that decides which rows come in which order; not to limit. The list's name
  // is part of the sort, so a receivables-list cursor is never taken for a customer one.
  const binding: CursorBinding = { sort: `customers:${sort}`, order, filters: { ...filters } };
  const keyset = await keysetPage(ctx, { binding, cursor: input.cursor, limit, value: CUSTOMER_SORT_VALUE_PATTERN[sort] });
  const rows = await listCustomerRows(ctx.db, { organizationId: ctx.org.id, today: ctx.today, sort, order, filters, after: keyset.after, take: keyset.take });
  const { page, next_cursor } = keyset.cut(rows, (row) => ({ value: row.sortValue, id: row.id }));
  return { customers: page.map(customerView), next_cursor };
}
