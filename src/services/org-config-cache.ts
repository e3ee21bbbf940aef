/**
 * The organization's configuration a hot request reads (workflows, custom field definitions,
 * whether e-invoicing is on, how many members are active), cached per process under the
 * organization's epoch (auth_epochs). Every change of that configuration raises the epoch in its own
 * transaction (triggers, migrations 0021 and 0022), and a request carries the epoch read with its
 * credential (ServiceContext.org.configEpoch): a request only ever sees configuration at least as new
 * as what was committed when it was authenticated, as if it had read it then.
 *
 * Used only by services that never change the configuration they read (reading, listing and
 * preparing receivables documents); contexts without an epoch (jobs, CLI, system) read afresh.
 */
import { findCustomFieldDefinitions } from '../db/queries/reference-data';
import { countActiveMembers } from '../db/queries/workflows';
import type { Actor } from './workflow/transitions';
import type { RecordType, WorkflowDefinition } from './workflow/types';
import { actorWith, loadWorkflow } from './workflow/workflows';
import { einvoicingEnabled } from './einvoicing/settings';
import type { ServiceContext } from './context';

interface Entry {
  epoch: number;
  values: Map<string, Promise<unknown>>;
}

const MAX_ORGANIZATIONS = 1_000;
const entries = new Map<string, Entry>();

async function cached<T>(ctx: ServiceContext, name: string, load: () => Promise<T>): Promise<T> {
  const epoch = ctx.org.configEpoch;
  const organizationId = ctx.principal.organizationId;
  if (epoch === undefined || ctx.org.id !== organizationId) return load();
  let entry = entries.get(organizationId);
  if (entry && entry.epoch > epoch) return load(); // this request was authenticated before a newer change
  if (!entry || entry.epoch !== epoch) {
    entries.delete(organizationId);
    if (entries.size >= MAX_ORGANIZATIONS) entries.delete(entries.keys().next().value!);
    entry = { epoch, values: new Map() };
    entries.set(organizationId, entry);
  }
  let value = entry.values.get(name) as Promise<T> | undefined;
  if (!value) {
    const held = entry;
    value = load();
    held.values.set(name, value);
    value.catch(() => held.values.delete(name));
  }
  return value;
}

export function cachedWorkflow(ctx: ServiceContext, recordType: RecordType): Promise<WorkflowDefinition> {
  return cached(ctx, `workflow:${recordType}`, () => loadWorkflow(ctx.db, ctx.principal.organizationId, recordType));
}

/** The caller as the workflow sees them (actorOf), the active-member count from the cache. */
export async function cachedActor(ctx: ServiceContext): Promise<Actor> {
  return actorWith(ctx.principal, await cached(ctx, 'active-members', () => countActiveMembers(ctx.db, { organizationId: ctx.principal.organizationId })));
}

export function cachedEinvoicingEnabled(ctx: ServiceContext): Promise<boolean> {
  return cached(ctx, 'einvoicing-enabled', () => einvoicingEnabled(ctx.db, ctx.principal.organizationId));
}

export function cachedCustomFieldDefinitions(ctx: ServiceContext, recordType: 'receivable_document' | 'customer' | 'expense_claim') {
  return cached(ctx, `custom-fields:${recordType}`, () => findCustomFieldDefinitions(ctx.db, { organizationId: ctx.principal.organizationId, recordType }));
}
