import type { Database } from '../../src/db/client';
import { findClaimGroup } from '../../src/db/queries/claims';
import { findCustomer } from '../../src/db/queries/customers';
import { lockCounterpartyMapping, sharesActiveGroup } from '../../src/db/queries/counterparty-map';
import { findExpenseCategory, findMileageRate, findPerDiemRate } from '../../src/db/queries/expense-reference-data';
import { findOrgUnit, findPosition, findPositionAssignment } from '../../src/db/queries/people';
import {
  lockAccount,
  lockAnalyticAccount,
  lockAnalyticAxis,
  lockCustomFieldDefinition,
  lockTaxCode,
  lockTradeLines,
  setTradeLineInvoiced,
} from '../../src/db/queries/reference-data';
import type { PostalAddress } from '../../src/db/schema';
import type { AccountType, CustomFieldRecordType, CustomFieldType, PartyKind, RegistrationType, TradeLineKind } from '../../src/domain/receivables';
import type { ServiceContext } from '../../src/services/context';
import { createClaimGroup as createClaimGroupFor, retireClaimGroup as retireClaimGroupFor } from '../../src/services/expenses/claim-groups';
import { createExpenseCategory as createExpenseCategoryFor, deactivateExpenseCategory } from '../../src/services/expenses/expense-categories';
import { createMileageRate as createMileageRateFor } from '../../src/services/expenses/mileage-rates';
import { createPerDiemRate as createPerDiemRateFor } from '../../src/services/expenses/per-diem-rates';
import { createOrgUnit as createOrgUnitFor } from '../../src/services/people/org-units';
import { createPositionAssignment } from '../../src/services/people/position-assignments';
import { createPosition as createPositionFor, retirePosition } from '../../src/services/people/positions';
import { createCustomerFor, updateCustomer } from '../../src/services/receivables/customers';
import { createAccount as createAccountFor, deactivateAccount } from '../../src/services/settings/accounts';
import { createAnalyticAccount as createAnalyticAccountFor, deactivateAnalyticAccount } from '../../src/services/settings/analytic-accounts';
import { createAnalyticAxis as createAnalyticAxisFor } from '../../src/services/settings/analytic-axes';
import { acceptCompanyGroupInvitationFor, createCompanyGroup as createCompanyGroupFor, leaveCompanyGroup } from '../../src/services/settings/company-groups';
import { createCounterpartyMapping } from '../../src/services/settings/counterparty-mappings';
import { createCustomField, deactivateCustomField } from '../../src/services/settings/custom-field-definitions';
import { systemContextFor, written } from '../../src/services/settings/setup';
import { createTaxCode as createTaxCodeFor, deactivateTaxCode } from '../../src/services/settings/tax-codes';
import { createTradeLine as createTradeLineFor } from '../../src/services/settings/trade-lines';

/**
 * The set-up world of tests, built as the system through the same `(ctx, input)` services the
 * procedures call (their rules, custom fields and settings history included). Each answers the
 * stored row, read back through db/queries, for the tests' convenience.
 */

/** The system acting on one organization, as the CLI and jobs act. */
export const systemFor = (db: Database, organizationId: string, now?: Date): Promise<ServiceContext> => systemContextFor(db, organizationId, now);

const one = (organizationId: string, id: string) => ({ organizationId, id });

export async function createAccount(db: Database, organizationId: string, input: { code: string; name: string; type?: AccountType; active?: boolean }) {
  const ctx = await systemFor(db, organizationId);
  const a = await createAccountFor(ctx, { code: input.code, name: input.name, type: input.type ?? 'revenue' });
  if (input.active === false) await deactivateAccount(ctx, { id: a.id, expected_revision: a.revision });
  return written(await lockAccount(db, one(organizationId, a.id)));
}

export async function createTaxCode(
  db: Database,
  organizationId: string,
  input: { code: string; name?: string; rate: string; taxType: string; taxPackKind?: 'my_sst'; active?: boolean },
) {
  const ctx = await systemFor(db, organizationId);
  const c = await createTaxCodeFor(ctx, { code: input.code, name: input.name ?? input.code, rate: input.rate, tax_type: input.taxType, tax_pack_kind: input.taxPackKind });
  if (input.active === false) await deactivateTaxCode(ctx, { id: c.id, expected_revision: c.revision });
  return written(await lockTaxCode(db, one(organizationId, c.id)));
}

export async function createAnalyticAxis(db: Database, organizationId: string, input: { code: string; name: string; isProjectAxis?: boolean }) {
  const ctx = await systemFor(db, organizationId);
  const a = await createAnalyticAxisFor(ctx, { code: input.code, name: input.name, is_project_axis: input.isProjectAxis });
  return written(await lockAnalyticAxis(db, one(organizationId, a.id)));
}

export async function createAnalyticAccount(db: Database, organizationId: string, input: { axisId: string; code: string; name: string; active?: boolean }) {
  const ctx = await systemFor(db, organizationId);
  const a = await createAnalyticAccountFor(ctx, { axis_id: input.axisId, code: input.code, name: input.name });
  if (input.active === false) await deactivateAnalyticAccount(ctx, { id: a.id, expected_revision: a.revision });
  return written(await lockAnalyticAccount(db, one(organizationId, a.id)));
}

export async function createCustomFieldDefinition(
  db: Database,
  organizationId: string,
  input: { recordType?: CustomFieldRecordType; key: string; label: string; type: CustomFieldType; options?: string[]; required?: boolean; active?: boolean },
) {
  const ctx = await systemFor(db, organizationId);
  const d = await createCustomField(ctx, {
    record_type: input.recordType ?? 'receivable_document',
    key: input.key,
    label: input.label,
    type: input.type,
    options: input.options,
    required: input.required,
  });
  if (input.active === false) await deactivateCustomField(ctx, { id: d.id, expected_revision: d.revision });
  return written(await lockCustomFieldDefinition(db, one(organizationId, d.id)));
}

/** `quantityInvoiced`: what documents have already taken (the settings procedure never takes it). */
export async function createTradeLine(
  db: Database,
  organizationId: string,
  input: { customerId: string; kind: TradeLineKind; reference: string; description: string; quantity: string; quantityInvoiced?: string; unitCode?: string | null; lineNo?: number },
) {
  const ctx = await systemFor(db, organizationId);
  const t = await createTradeLineFor(ctx, {
    customer_id: input.customerId,
    kind: input.kind,
    reference: input.reference,
    description: input.description,
    quantity: input.quantity,
    unit_code: input.unitCode ?? null,
    line_no: input.lineNo,
  });
  if (input.quantityInvoiced && input.quantityInvoiced !== '0') await setTradeLineInvoiced(db, { organizationId, id: t.id, quantityInvoiced: input.quantityInvoiced });
  return written((await lockTradeLines(db, { organizationId, ids: [t.id] }))[0]);
}

export async function createExpenseCategory(db: Database, input: { organizationId: string; code: string; name: string; active?: boolean }) {
  const ctx = await systemFor(db, input.organizationId);
  const c = await createExpenseCategoryFor(ctx, { code: input.code, name: input.name });
  if (input.active === false) await deactivateExpenseCategory(ctx, { id: c.id, expected_revision: c.revision });
  return written(await findExpenseCategory(db, one(input.organizationId, c.id)));
}

export async function createClaimGroup(db: Database, input: { organizationId: string; name: string }) {
  const g = await createClaimGroupFor(await systemFor(db, input.organizationId), { name: input.name });
  return written(await findClaimGroup(db, one(input.organizationId, g.id)));
}

/** A retired group keeps its claims and takes no new ones. */
export async function retireClaimGroup(db: Database, q: { organizationId: string; id: string; now: Date }) {
  const group = written(await findClaimGroup(db, q));
  await retireClaimGroupFor(await systemFor(db, q.organizationId, q.now), { id: q.id, expected_revision: group.revision });
}

export interface MileageBandInput {
  band: string;
  fromKm: string;
  toKm?: string | null;
  ratePerKm: string;
}

export async function createMileageRate(
  db: Database,
  input: { organizationId: string; name: string; currency: string; validFrom: string; validTo?: string | null; bands: MileageBandInput[] },
) {
  const rate = await createMileageRateFor(await systemFor(db, input.organizationId), {
    name: input.name,
    currency: input.currency,
    valid_from: input.validFrom,
    valid_to: input.validTo ?? null,
    bands: input.bands.map((b) => ({ band: b.band, from_km: b.fromKm, to_km: b.toKm ?? null, rate_per_km: b.ratePerKm })),
  });
  return written(await findMileageRate(db, one(input.organizationId, rate.id)));
}

export async function createPerDiemRate(
  db: Database,
  input: { organizationId: string; name: string; currency: string; validFrom: string; validTo?: string | null; bands: { band: string; amountPerDay: string }[] },
) {
  const rate = await createPerDiemRateFor(await systemFor(db, input.organizationId), {
    name: input.name,
    currency: input.currency,
    valid_from: input.validFrom,
    valid_to: input.validTo ?? null,
    bands: input.bands.map((b) => ({ band: b.band, amount_per_day: b.amountPerDay })),
  });
  return written(await findPerDiemRate(db, one(input.organizationId, rate.id)));
}

export async function createOrgUnit(db: Database, input: { organizationId: string; code: string; name: string; parentId?: string | null }) {
  const unit = await createOrgUnitFor(await systemFor(db, input.organizationId), { code: input.code, name: input.name, parent_id: input.parentId ?? null });
  return written(await findOrgUnit(db, one(input.organizationId, unit.id)));
}

export async function createPosition(db: Database, input: { organizationId: string; orgUnitId: string; title: string; isUnitHead?: boolean; retiredAt?: Date | null }) {
  const ctx = await systemFor(db, input.organizationId);
  const position = await createPositionFor(ctx, { org_unit_id: input.orgUnitId, title: input.title, is_unit_head: input.isUnitHead ?? false });
  if (input.retiredAt) await retirePosition({ ...ctx, now: input.retiredAt }, { id: position.id, expected_revision: position.revision });
  return written(await findPosition(db, one(input.organizationId, position.id)));
}

/** From `validFrom` to `validTo` (inclusive, open when absent); a new primary assignment ends the member's open primary one. */
export async function assignPosition(
  db: Database,
  input: { organizationId: string; memberId: string; positionId: string; validFrom: string; validTo?: string | null; isPrimary?: boolean },
) {
  const a = await createPositionAssignment(await systemFor(db, input.organizationId), {
    member_id: input.memberId,
    position_id: input.positionId,
    valid_from: input.validFrom,
    valid_to: input.validTo ?? null,
    is_primary: input.isPrimary ?? true,
  });
  return written(await findPositionAssignment(db, one(input.organizationId, a.id)));
}

/** The camelCase fields tests name a customer by. */
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

export async function createCustomer(db: Database, organizationId: string, input: CreateCustomerInput) {
  const ctx = await systemFor(db, organizationId);
  const c = await createCustomerFor(ctx, {
    code: input.code,
    legal_name: input.legalName,
    party_kind: input.partyKind,
    currency: input.currency,
    country_code: input.countryCode,
    payment_terms_days: input.paymentTermsDays,
    address: input.address,
    email: input.email,
    phone: input.phone,
    registration_no: input.registrationNo,
    registration_type: input.registrationType,
    sst_registration_no: input.sstRegistrationNo,
    tin: input.tin,
    custom_fields: input.customFields,
  });
  if (input.isActive === false) {
    await updateCustomer(ctx, { id: c.id, expected_revision: c.revision, is_active: false });
  }
  return written(await findCustomer(db, { organizationId, id: c.id, today: ctx.today }));
}

/**
 * Organizations in one group of companies: the first creates it and invites the others, and each
 * of the others accepts, as the system acting for it.
 */
export async function createCompanyGroup(db: Database, name: string, organizationIds: string[]) {
  const [creator, ...others] = organizationIds;
  const group = await createCompanyGroupFor(await systemFor(db, creator!), { name, member_organization_ids: others });
  let revision = group.revision;
  for (const other of others) revision = (await acceptCompanyGroupInvitationFor(await systemFor(db, other), { id: group.id, expected_revision: revision })).revision;
  return { ...group, revision };
}

/**
 * Maps a customer to another company for a dated period. A company outside every group the
 * organization shares is mapped as it happens in life: through a group both were in, which the
 * company has left since.
 */
export async function mapCounterparty(
  db: Database,
  input: { organizationId: string; customerId: string; companyOrganizationId: string; validFrom: string; validTo?: string | null },
) {
  const ctx = await systemFor(db, input.organizationId);
  const shared = await sharesActiveGroup(db, { organizationId: input.organizationId, companyOrganizationId: input.companyOrganizationId });
  const passing = shared ? undefined : await createCompanyGroup(db, `Passing group ${input.customerId}`, [input.organizationId, input.companyOrganizationId]);
  const m = await createCounterpartyMapping(ctx, {
    customer_id: input.customerId,
    company_organization_id: input.companyOrganizationId,
    valid_from: input.validFrom,
    valid_to: input.validTo ?? null,
  });
  if (passing) await leaveCompanyGroup(await systemFor(db, input.companyOrganizationId), { id: passing.id, expected_revision: passing.revision }, 'leave');
  return written(await lockCounterpartyMapping(db, one(input.organizationId, m.id)));
}
