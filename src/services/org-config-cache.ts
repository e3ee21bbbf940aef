/**
 * The organization's configuration a hot request reads (workflows, custom field definitions,
 * whether e-invoicing is on, how many members are active, the approval engine's set-up: the claim
 * policy, the grants, the axes claims must be allocated on, the delegations in force today, and the
 * chart with the approver assignments of today, below), cached per process under the
 * organization's epoch (auth_epochs). Every change of that configuration raises the epoch in its own
 * transaction (triggers, migrations 0021 and 0022), and a request carries the epoch read with its
 * credential (ServiceContext.org.configEpoch): a request only ever sees configuration at least as new
 * as what was committed when it was authenticated, as if it had read it then.
 *
 * Used only by services that never change the configuration they read (reading, listing and
 * preparing receivables documents, the claim list's judgement of what the caller may sign); the
 * transition step reads afresh, as do contexts without an epoch (jobs, CLI, system). Callers never
 * change what they are given.
 */
import { findClaimPolicyFacts, listAssignmentsInForce, listDelegationsInForce, listGrants, listRequiredClaimAxes, loadOrgChart } from '../db/queries/approval-engine';
import { findCustomFieldDefinitions } from '../db/queries/custom-field-definitions';
import { countActiveMembers } from '../db/queries/workflows';
import type { Actor } from './workflow/transitions';
import type { RecordType, WorkflowDefinition } from './workflow/types';
import { actorWith, loadWorkflow } from './workflow/workflows';
import { einvoicingEnabled } from './einvoicing/settings';
import type { ServiceContext } from './context';
import { freshEngineSetup, type ChartAndAssignments, type EngineSetup } from './workflow/approvals/claim-step';
import { OrgChart } from './workflow/approvals/org-chart';
import { groupBy } from '../lib/group-by';

interface Entry {
  epoch: number;
  values: Map<string, Promise<unknown>>;
}

/** Values per organization under its epoch, for at most `organizations` organizations (the oldest dropped first). */
interface Store {
  organizations: number;
  entries: Map<string, Entry>;
}

const configuration: Store = { organizations: 1_000, entries: new Map() };

/**
 * `load()` once per organization, epoch and name (and day, when given: a name keeps one day's
 * value, the day before's dropped when today's is loaded).
 */
async function cached<T>(ctx: ServiceContext, name: string, load: () => Promise<T>, opts: { day?: string; store?: Store } = {}): Promise<T> {
  const epoch = ctx.org.configEpoch;
  const organizationId = ctx.org.id;
  const { entries, organizations } = opts.store ?? configuration;
  if (epoch === undefined) return load();
  let entry = entries.get(organizationId);
  if (entry && entry.epoch > epoch) return load(); // this request was authenticated before a newer change
  if (!entry || entry.epoch !== epoch) {
    entries.delete(organizationId);
    if (entries.size >= organizations) entries.delete(entries.keys().next().value!);
    entry = { epoch, values: new Map() };
    entries.set(organizationId, entry);
  }
  const key = opts.day === undefined ? name : `${name}@${opts.day}`;
  let value = entry.values.get(key) as Promise<T> | undefined;
  if (!value) {
    if (opts.day !== undefined) for (const k of entry.values.keys()) if (k.startsWith(`${name}@`)) entry.values.delete(k);
    const held = entry;
    value = load();
    held.values.set(key, value);
    value.catch(() => held.values.delete(key));
  }
  return value;
}

export function cachedWorkflow(ctx: ServiceContext, recordType: RecordType): Promise<WorkflowDefinition> {
  return cached(ctx, `workflow:${recordType}`, () => loadWorkflow(ctx.db, ctx.org.id, recordType));
}

/** The caller as the workflow sees them (actorOf), the active-member count from the cache. */
export async function cachedActor(ctx: ServiceContext): Promise<Actor> {
  return actorWith(ctx.principal, await cached(ctx, 'active-members', () => countActiveMembers(ctx.db, { organizationId: ctx.org.id })));
}

export function cachedEinvoicingEnabled(ctx: ServiceContext): Promise<boolean> {
  return cached(ctx, 'einvoicing-enabled', () => einvoicingEnabled(ctx.db, ctx.org.id));
}

export function cachedCustomFieldDefinitions(ctx: ServiceContext, recordType: 'receivable_document' | 'customer' | 'expense_claim') {
  return cached(ctx, `custom-fields:${recordType}`, () => findCustomFieldDefinitions(ctx.db, { organizationId: ctx.org.id, recordType }));
}

/** The approval engine's set-up (claim policy, grants, required axes, today's delegations) from the cache: for reads only. */
export function cachedEngineSetup(ctx: ServiceContext): EngineSetup {
  const organizationId = ctx.org.id;
  return {
    policy: () => cached(ctx, 'claim-policy', () => findClaimPolicyFacts(ctx.db, { organizationId })),
    grants: () => cached(ctx, 'approval-grants', () => listGrants(ctx.db, { organizationId })),
    requiredAxes: () => cached(ctx, 'required-claim-axes', () => listRequiredClaimAxes(ctx.db, { organizationId })),
    delegations: () => cached(ctx, 'delegations', () => listDelegationsInForce(ctx.db, { organizationId, day: ctx.today }), { day: ctx.today }),
    chartAndAssignments: (accounts) => cachedChartAndAssignments(ctx, accounts),
  };
}

/**
 * Today's whole chart and every approver assignment in force, per organization, under its epoch
 * (org units, positions, who holds them, approver assignments and members' activity all raise it):
 * kept apart from the rest and bounded, in organizations (64) and in rows per organization
 * (RESOLUTION_ROWS_MAX: a larger organization reads what a page needs each time). A chart serves
 * until the first position retirement after it was built.
 */
const charts: Store = { organizations: 64, entries: new Map() };
const RESOLUTION_ROWS_MAX = 10_000;

async function cachedChartAndAssignments(ctx: ServiceContext, accounts: string[]): Promise<ChartAndAssignments> {
  const fresh = () => freshEngineSetup(ctx).chartAndAssignments(accounts);
  if (ctx.org.configEpoch === undefined) return fresh();
  const whole = await cached(ctx, 'chart', () => wholeResolution(ctx), { day: ctx.today, store: charts });
  if (!whole || ctx.now.getTime() >= whole.until) return fresh();
  return whole;
}

/** The whole organization's chart of today and assignments in force, or null when larger than RESOLUTION_ROWS_MAX. */
async function wholeResolution(ctx: ServiceContext): Promise<(ChartAndAssignments & { until: number }) | null> {
  const organizationId = ctx.org.id;
  const [rows, assignments] = await Promise.all([loadOrgChart(ctx.db, { organizationId, day: ctx.today }), listAssignmentsInForce(ctx.db, { organizationId, day: ctx.today })]);
  const size = rows.unitRows.length + rows.positionRows.length + rows.holderRows.length + rows.memberRows.length + assignments.length;
  if (size > RESOLUTION_ROWS_MAX) return null;
  const now = ctx.now.getTime();
  const retirements = rows.positionRows.map((p) => (p.retiredAt === null ? Infinity : new Date(p.retiredAt).getTime())).filter((at) => at > now);
  return { chart: new OrgChart(rows, ctx.now), assignments, assignmentsByAccount: groupBy(assignments, (a) => a.analyticAccountId), until: Math.min(Infinity, ...retirements) };
}
