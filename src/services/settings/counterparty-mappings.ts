import {
  listCounterpartyMappings,
  lockCounterpartyMapping,
  lockCustomerForMapping,
  overlappingMappings,
  sharesActiveGroup,
  updateCounterpartyMappingRow,
  type CounterpartyMappingRow,
} from '../../db/queries/counterparty-map';
import { insertCounterpartyMapping } from '../../db/queries/customers';
import { AppError } from '../../lib/errors';
import { datedPeriod, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { changeRecord, createdRecord, deactivateRecord, leavesUnchanged, setupListPage, type RecordChange, type SetupFamily, type SetupListInput } from './setup';

/**
 * The dated counterparty map (settings.counterpartyMappings.*): for a period (valid_from to valid_to,
 * both inclusive; no valid_to is open-ended) a customer of this organization is another company of
 * a group it belongs to. `is_group_company` and the invoice list's `group` filter are decided from it
 * as at the organization's today. One customer's active periods never overlap (checked under a lock
 * on the customer, so two writers cannot both pass). Ending a mapping is an update of valid_to;
 * deactivating removes one entered in error.
 */

export function counterpartyMappingView(m: CounterpartyMappingRow) {
  return {
    id: m.id,
    customer_id: m.customerId,
    company_organization_id: m.companyOrganizationId,
    valid_from: m.validFrom,
    valid_to: m.validTo,
    active: m.active,
    revision: m.revision,
  };
}
export type CounterpartyMappingView = ReturnType<typeof counterpartyMappingView>;

async function checkCompany(ctx: ServiceContext, r: Refusals, companyOrganizationId: string): Promise<void> {
  if (companyOrganizationId === ctx.org.id) {
    r.add('/company_organization_id', 'must be another organization than this one');
    return;
  }
  r.check(
    await sharesActiveGroup(ctx.db, { organizationId: ctx.org.id, companyOrganizationId }),
    '/company_organization_id',
    'is not an organization of an active company group this organization belongs to',
  );
}

async function refuseOverlap(ctx: ServiceContext, q: { customerId: string; from: string; to: string | null; exceptId?: string }): Promise<void> {
  const [other] = await overlappingMappings(ctx.db, { organizationId: ctx.org.id, ...q });
  if (!other) return;
  throw new AppError('conflict', {
    detail: `The customer is already mapped from ${other.validFrom} to ${other.validTo ?? 'open end'} (mapping ${other.id}); periods of one customer must not overlap`,
    errors: [{ pointer: '/valid_from', detail: 'overlaps another mapping of the customer' }],
  });
}

const mappings: SetupFamily<CounterpartyMappingRow, CounterpartyMappingView> = {
  entity: 'counterpartyMappings',
  what: 'counterparty mapping',
  // The mapping, then its customer: the overlap rule is checked under the customer's lock, as on create.
  lock: async (ctx, id) => {
    const mapping = await lockCounterpartyMapping(ctx.db, { organizationId: ctx.org.id, id });
    if (mapping) await lockCustomerForMapping(ctx.db, { organizationId: ctx.org.id, customerId: mapping.customerId });
    return mapping;
  },
  write: (ctx, current, set) => updateCounterpartyMappingRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...set, revision: current.revision + 1 }),
  view: (_ctx, row) => counterpartyMappingView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export interface CreateCounterpartyMappingInput {
  customer_id: string;
  company_organization_id: string;
  valid_from: string;
  valid_to?: string | null;
}

/** Writes a mapping under the customer's lock. */
export async function createCounterpartyMapping(ctx: ServiceContext, input: CreateCounterpartyMappingInput): Promise<CounterpartyMappingView> {
  const r = new Refusals();
  const validTo = input.valid_to ?? null;
  datedPeriod(r, input.valid_from, validTo);
  const customer = await lockCustomerForMapping(ctx.db, { organizationId: ctx.org.id, customerId: input.customer_id });
  r.check(Boolean(customer), '/customer_id', 'no such customer in this organization');
  await checkCompany(ctx, r, input.company_organization_id);
  r.throwIfAny();
  await refuseOverlap(ctx, { customerId: input.customer_id, from: input.valid_from, to: validTo });
  const row = await insertCounterpartyMapping(ctx.db, {
    organizationId: ctx.org.id,
    customerId: input.customer_id,
    companyOrganizationId: input.company_organization_id,
    validFrom: input.valid_from,
    validTo,
  });
  return createdRecord(ctx, mappings, row);
}

export interface UpdateCounterpartyMappingInput extends RecordChange {
  company_organization_id?: string;
  valid_from?: string;
  valid_to?: string | null;
}

export async function updateCounterpartyMapping(ctx: ServiceContext, input: UpdateCounterpartyMappingInput): Promise<CounterpartyMappingView> {
  return changeRecord(ctx, mappings, input, async (current) => {
    const from = input.valid_from ?? current.validFrom;
    const to = input.valid_to === undefined ? current.validTo : input.valid_to;
    const r = new Refusals();
    if (input.valid_to !== undefined) datedPeriod(r, from, to);
    else r.check(!to || to >= from, '/valid_from', `must not be after valid_to (${to})`);
    if (input.company_organization_id !== undefined && input.company_organization_id !== current.companyOrganizationId) {
      await checkCompany(ctx, r, input.company_organization_id);
    }
    r.throwIfAny();
    const set = { companyOrganizationId: input.company_organization_id, validFrom: input.valid_from, validTo: input.valid_to };
    if (current.active && !leavesUnchanged(current, set)) await refuseOverlap(ctx, { customerId: current.customerId, from, to, exceptId: current.id });
    return set;
  });
}

export async function deactivateCounterpartyMapping(ctx: ServiceContext, input: RecordChange): Promise<CounterpartyMappingView> {
  return deactivateRecord(ctx, mappings, input, () => ({ active: false }));
}

export interface ListCounterpartyMappingsInput extends SetupListInput {
  customer_id?: string;
}

export function listCounterpartyMappingsPage(ctx: ServiceContext, input: ListCounterpartyMappingsInput) {
  return setupListPage(ctx, 'settings.counterpartyMappings', input, { customer_id: input.customer_id }, (q) => listCounterpartyMappings(ctx.db, { ...q, customerId: input.customer_id }), (m) => m.validFrom, counterpartyMappingView);
}
