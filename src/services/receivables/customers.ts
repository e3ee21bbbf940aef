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
import { findOrganization } from '../../db/queries/organizations';
import type { PostalAddress, customers } from '../../db/schema';
import type { CustomerListSort, PartyKind, RegistrationType } from '../../domain/receivables';
import { isCountryCode, isCurrency } from '../../lib/code-lists';
import { decodeCursor, encodeCursor, invalidCursor, type CursorBinding } from '../../lib/cursor';
import { AppError, pointerLabel } from '../../lib/errors';
import { notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkCustomFields } from '../custom-fields';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';

/**
 * Customers of an organization: read, list, create and change (contract 2.3, 4.4; DESIGN section 12).
 * `is_group_company` is never stored: it is read from the counterparty map as at the organization's
 * today. Country codes are ISO 3166-1 alpha-2 (DESIGN section 5). Every create and change through
 * the operations is appended to the settings history in the same transaction.
 */
import { createCompanyGroupRow } from '../settings/company-groups';
import { createCounterpartyMappingRow } from '../settings/counterparty-mappings';
import { systemContextFor } from '../settings/rules';

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

const notFound = () => new AppError('not_found', { detail: 'No such customer in this organization' });

export async function getCustomer(ctx: ServiceContext, input: { id: string }): Promise<CustomerView> {
  const row = await findCustomer(ctx.db, { organizationId: ctx.org.id, id: input.id, today: ctx.today });
  if (!row) throw notFound();
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
    return new AppError('conflict', { detail: `A customer with the code ${code} already exists`, errors: [{ pointer: '/code', detail: 'is already in use' }] });
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
  return out;
}

/** Checks and inserts; defaults: organization, MY, the base currency, 30 days, active. */
async function insertChecked(db: Database, org: { id: string; baseCurrency: string }, input: CustomerCreateInput & { is_active?: boolean }) {
  checkCustomerFields(input);
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
  if (!locked) throw notFound();
  checkRevision(locked.revision, expected_revision);
  checkCustomerFields(fields);
  if (fields.custom_fields !== undefined) await checkCustomerCustomFields(ctx.db, organizationId, fields.custom_fields);

  const before = await findCustomer(ctx.db, { organizationId, id, today: ctx.today });
  if (!before) throw notFound();
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
  const secret = await ctx.cursorSecret();
  let after: { value: string; id: string } | undefined;
  if (input.cursor !== undefined) {
    const position = decodeCursor(secret, input.cursor, binding);
    if (position.value === null || !CUSTOMER_SORT_VALUE_PATTERN[sort].test(position.value) || !/^[0-9a-f-]{36}$/i.test(position.id)) throw invalidCursor();
    after = { value: position.value, id: position.id };
  }
  const rows = await listCustomerRows(ctx.db, { organizationId: ctx.org.id, today: ctx.today, sort, order, filters, after, take: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    customers: page.map(customerView),
    next_cursor: rows.length > limit && last ? encodeCursor(secret, binding, { value: last.sortValue, id: last.id }) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Older entry points, kept while the demo seed and test factories call them (the demo is rewritten
// onto the operations later).

/** @deprecated The demo's and factories' camelCase input; new code calls createCustomerFor(ctx, input). */
export interface CreateCustomerInput {
  code: string;
  legalName: string;
  partyKind?: PartyKind;
  currency?: string;
  countryCode?: string;
  paymentTermsDays?: number;
  isActive?: boolean;
  address?: PostalAddress;
  email?: string | null;
  phone?: string | null;
  registrationNo?: string | null;
  registrationType?: RegistrationType | null;
  sstRegistrationNo?: string | null;
  tin?: string | null;
  customFields?: Record<string, string>;
}

/**
 * @deprecated Set-up of a customer without an actor (demo seed, test factories): the same rules as
 * createCustomerFor but custom fields, no settings history; answers the stored row.
 */
export async function createCustomer(db: Database, organizationId: string, input: CreateCustomerInput) {
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found');
  return insertChecked(db, org, {
    code: input.code,
    legal_name: input.legalName,
    party_kind: input.partyKind,
    currency: input.currency,
    country_code: input.countryCode,
    payment_terms_days: input.paymentTermsDays,
    is_active: input.isActive,
    address: input.address,
    email: input.email,
    phone: input.phone,
    registration_no: input.registrationNo,
    registration_type: input.registrationType,
    sst_registration_no: input.sstRegistrationNo,
    tin: input.tin,
    custom_fields: input.customFields,
  });
}

/**
 * Old signature (demo, tests, benchmarks) of settings.counterpartyMappings.create: maps a customer to
 * another company for a dated period, as the system. Unlike the procedure it does not require the
 * company to share a group with the organization (fixtures map to outsiders on purpose); the period
 * and overlap rules and the settings history are the service's.
 */
export async function mapCounterparty(
  db: Database,
  input: { organizationId: string; customerId: string; companyOrganizationId: string; validFrom: string; validTo?: string | null },
) {
  const ctx = await systemContextFor(db, input.organizationId);
  return createCounterpartyMappingRow(
    ctx,
    { customer_id: input.customerId, company_organization_id: input.companyOrganizationId, valid_from: input.validFrom, valid_to: input.validTo ?? null },
    { checkCompany: false },
  );
}

/**
 * Old signature (tests, benchmarks) of settings.companyGroups.create: puts organizations in one
 * group of companies, acting as the first of them (the creator) and, as the system, accepting for
 * every other one at once (the procedure only invites them; fixtures need the group in force).
 */
export async function createCompanyGroup(db: Database, name: string, organizationIds: string[]) {
  const [actingOrganizationId, ...others] = organizationIds;
  if (!actingOrganizationId) throw new AppError('internal', { detail: 'a company group needs an organization' });
  const ctx = await systemContextFor(db, actingOrganizationId);
  return createCompanyGroupRow(ctx, { name, member_organization_ids: others }, { othersAccepted: true });
}
