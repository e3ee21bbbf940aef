import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { findCustomer, insertCustomer, type CustomerRow } from '../../db/queries/customers';
import { findOrganization } from '../../db/queries/organizations';
import type { PostalAddress } from '../../db/schema';
import { todayIn } from '../../lib/dates';
import { AppError, pointerLabel, validationError } from '../../lib/errors';
import type { Principal } from '../access/principal';
import { checkCustomFields } from '../custom-fields';
import { createCompanyGroupRow } from '../settings/company-groups';
import { createCounterpartyMappingRow } from '../settings/counterparty-mappings';
import { systemContextFor } from '../settings/rules';

/** The organization's today, which dated rules (counterparty map, due dates) are decided at. */
export async function organizationToday(db: Database, organizationId: string, now: Date): Promise<string> {
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found');
  return todayIn(org.timeZone, now);
}

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

export async function getCustomer(db: Database, principal: Principal, id: string, now: Date): Promise<CustomerView> {
  const today = await organizationToday(db, principal.organizationId, now);
  const row = await findCustomer(db, { organizationId: principal.organizationId, id, today });
  if (!row) throw new AppError('not_found', { detail: 'No such customer in this organization' });
  return customerView(row);
}

export interface CreateCustomerInput {
  code: string;
  legalName: string;
  partyKind?: 'organization' | 'individual';
  currency?: string;
  countryCode?: string;
  paymentTermsDays?: number;
  isActive?: boolean;
  address?: PostalAddress;
  email?: string | null;
  phone?: string | null;
  registrationNo?: string | null;
  registrationType?: 'brn' | 'nric' | 'passport' | 'army' | null;
  sstRegistrationNo?: string | null;
  tin?: string | null;
  customFields?: Record<string, string>;
}

/**
 * Set-up of a customer (admin, demo, tests); creating customers is not a /v1 operation yet. A code
 * already in use in the organization is 409 `conflict`, also when a concurrent request took it first.
 */
export async function createCustomer(db: Database, organizationId: string, input: CreateCustomerInput) {
  const terms = input.paymentTermsDays ?? 30;
  if (!Number.isInteger(terms) || terms < 0 || terms > 365) throw validationError('/payment_terms_days', 'must be a whole number from 0 to 365');
  if (!input.code.trim()) throw validationError('/code', 'must not be blank');
  if (!input.legalName.trim()) throw validationError('/legal_name', 'must not be blank');
  const org = await findOrganization(db, { organizationId });
  if (!org) throw new AppError('not_found');
  const code = input.code.trim();
  let row: Awaited<ReturnType<typeof insertCustomer>>;
  try {
    row = await insertCustomer(db, {
      organizationId,
      code,
      legalName: input.legalName.trim(),
      partyKind: input.partyKind ?? 'organization',
      currency: input.currency ?? org.baseCurrency,
      countryCode: input.countryCode ?? 'MY',
      paymentTermsDays: terms,
      isActive: input.isActive ?? true,
      address: input.address ?? {},
      email: input.email ?? null,
      phone: input.phone ?? null,
      registrationNo: input.registrationNo ?? null,
      registrationType: input.registrationType ?? null,
      sstRegistrationNo: input.sstRegistrationNo ?? null,
      tin: input.tin ?? null,
      customFields: input.customFields ?? {},
    });
  } catch (e) {
    // One answer for a code in use, whether found by an earlier request or raced by a concurrent one.
    if (isUniqueViolation(e, 'customers_org_code')) {
      throw new AppError('conflict', { detail: `A customer with the code ${code} already exists`, errors: [{ pointer: '/code', detail: 'is already in use' }] });
    }
    throw e;
  }
  if (!row) throw new AppError('internal');
  return row;
}

/**
 * A caller creates a customer of their own organization (tRPC-only for now). A code already in use
 * is 409 `conflict`. A new customer is in no counterparty map yet, so it is not a group company.
 */
export async function createCustomerFor(db: Database, principal: Principal, input: CreateCustomerInput): Promise<CustomerView> {
  const customFieldErrors = await checkCustomFields(db, { organizationId: principal.organizationId, recordType: 'customer', values: input.customFields ?? {} });
  if (customFieldErrors.length) {
    throw new AppError('custom_field_invalid', {
      detail: customFieldErrors.map((e) => `${pointerLabel(e.pointer)}: ${e.detail}`).join('; '),
      errors: customFieldErrors,
    });
  }
  const row = await createCustomer(db, principal.organizationId, input);
  return customerView({ ...row, isGroupCompany: false });
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
 * Old signature (demo, tests, benchmarks) of settings.companyGroups.create: puts organizations in one
 * group of companies, acting as the first of them.
 */
export async function createCompanyGroup(db: Database, name: string, organizationIds: string[]) {
  const [actingOrganizationId, ...others] = organizationIds;
  if (!actingOrganizationId) throw new AppError('internal', { detail: 'a company group needs an organization' });
  const ctx = await systemContextFor(db, actingOrganizationId);
  return createCompanyGroupRow(ctx, { name, member_organization_ids: others });
}
