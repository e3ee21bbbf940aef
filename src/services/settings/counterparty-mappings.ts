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
import { recordSettingsChange } from './history';
import type { PageInput } from './page';
import { keysetPage, leavesUnchanged, lockedForChange, must } from './rules';

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

const ENTITY = 'counterpartyMappings';

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

export interface CreateCounterpartyMappingInput {
  customer_id: string;
  company_organization_id: string;
  valid_from: string;
  valid_to?: string | null;
}

/**
 * Writes a mapping under the customer's lock. `checkCompany: false` is for the old signature the
 * demo and tests call, which seeds mappings to companies outside any group on purpose.
 */
export async function createCounterpartyMappingRow(
  ctx: ServiceContext,
  input: CreateCounterpartyMappingInput,
  opts: { checkCompany?: boolean } = {},
): Promise<CounterpartyMappingRow> {
  const r = new Refusals();
  const validTo = input.valid_to ?? null;
  datedPeriod(r, input.valid_from, validTo);
  const customer = await lockCustomerForMapping(ctx.db, { organizationId: ctx.org.id, customerId: input.customer_id });
  r.check(Boolean(customer), '/customer_id', 'no such customer in this organization');
  if (opts.checkCompany ?? true) await checkCompany(ctx, r, input.company_organization_id);
  r.throwIfAny();
  await refuseOverlap(ctx, { customerId: input.customer_id, from: input.valid_from, to: validTo });
  const row = must(
    await insertCounterpartyMapping(ctx.db, {
      organizationId: ctx.org.id,
      customerId: input.customer_id,
      companyOrganizationId: input.company_organization_id,
      validFrom: input.valid_from,
      validTo,
    }),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', before: null, after: counterpartyMappingView(row) });
  return row;
}

export async function createCounterpartyMapping(ctx: ServiceContext, input: CreateCounterpartyMappingInput): Promise<CounterpartyMappingView> {
  return counterpartyMappingView(await createCounterpartyMappingRow(ctx, input));
}

export interface UpdateCounterpartyMappingInput {
  id: string;
  expected_revision: number;
  company_organization_id?: string;
  valid_from?: string;
  valid_to?: string | null;
}

export async function updateCounterpartyMapping(ctx: ServiceContext, input: UpdateCounterpartyMappingInput): Promise<CounterpartyMappingView> {
  // The mapping, then its customer: the overlap rule is checked under the customer's lock, as on create.
  const peek = await lockCounterpartyMapping(ctx.db, { organizationId: ctx.org.id, id: input.id });
  if (peek) await lockCustomerForMapping(ctx.db, { organizationId: ctx.org.id, customerId: peek.customerId });
  const current = lockedForChange(peek, input.expected_revision, 'counterparty mapping');
  const from = input.valid_from ?? current.validFrom;
  const to = input.valid_to === undefined ? current.validTo : input.valid_to;
  const r = new Refusals();
  if (input.valid_to !== undefined) datedPeriod(r, from, to);
  else r.check(!to || to >= from, '/valid_from', `must not be after valid_to (${to})`);
  if (input.company_organization_id !== undefined && input.company_organization_id !== current.companyOrganizationId) {
    await checkCompany(ctx, r, input.company_organization_id);
  }
  r.throwIfAny();
  const patch = { companyOrganizationId: input.company_organization_id, validFrom: input.valid_from, validTo: input.valid_to };
  if (leavesUnchanged(current, patch)) return counterpartyMappingView(current);
  if (current.active) await refuseOverlap(ctx, { customerId: current.customerId, from, to, exceptId: current.id });
  const row = must(await updateCounterpartyMappingRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...patch, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before: counterpartyMappingView(current), after: counterpartyMappingView(row) });
  return counterpartyMappingView(row);
}

export async function deactivateCounterpartyMapping(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<CounterpartyMappingView> {
  const current = lockedForChange(
    await lockCounterpartyMapping(ctx.db, { organizationId: ctx.org.id, id: input.id }),
    input.expected_revision,
    'counterparty mapping',
  );
  if (!current.active) return counterpartyMappingView(current);
  const row = must(await updateCounterpartyMappingRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { active: false, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, {
    entity: ENTITY,
    record_id: row.id,
    action: 'deactivate',
    before: counterpartyMappingView(current),
    after: counterpartyMappingView(row),
  });
  return counterpartyMappingView(row);
}

export interface ListCounterpartyMappingsInput extends PageInput {
  customer_id?: string;
  include_inactive?: boolean;
}

export async function listCounterpartyMappingsPage(ctx: ServiceContext, input: ListCounterpartyMappingsInput) {
  const includeInactive = input.include_inactive ?? false;
  return keysetPage(
    ctx,
    'settings.counterpartyMappings',
    input,
    { include_inactive: includeInactive, customer_id: input.customer_id },
    (after, limit) => listCounterpartyMappings(ctx.db, { organizationId: ctx.org.id, customerId: input.customer_id, includeInactive, after, limit }),
    (m) => m.validFrom,
    counterpartyMappingView,
  );
}
