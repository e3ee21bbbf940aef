import type { Database } from '../../db/client';
import { countActiveMembers, findWorkflow, insertWorkflow } from '../../db/queries/workflows';
import { AppError } from '../../lib/errors';
import type { Principal } from '../access/principal';
import type { ServiceContext } from '../context';
import { DEFAULT_EXPENSE_CLAIM_WORKFLOW, DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW } from './defaults';
import { availableTransitions, type Actor, type RecordFacts } from './transitions';
import type { RecordType, TransitionDescriptor, WorkflowDefinition } from './types';

/** A new organization's own copies of the default workflows (services/access/organization-defaults.ts). */
export async function insertDefaultWorkflows(ctx: ServiceContext): Promise<void> {
  await insertWorkflow(ctx.db, { organizationId: ctx.org.id, definition: DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW });
  await insertWorkflow(ctx.db, { organizationId: ctx.org.id, definition: DEFAULT_EXPENSE_CLAIM_WORKFLOW });
}

export async function loadWorkflow(db: Database, organizationId: string, recordType: RecordType): Promise<WorkflowDefinition> {
  const def = await findWorkflow(db, { organizationId, recordType });
  if (!def) throw new AppError('internal', { detail: `organization has no ${recordType} workflow` });
  return def;
}

export async function actorOf(db: Database, principal: Principal): Promise<Actor> {
  return actorWith(principal, await countActiveMembers(db, { organizationId: principal.organizationId }));
}

/** The caller as the workflow sees them, given the organization's count of active members. */
export function actorWith(principal: Principal, activeMembers: number): Actor {
  return { memberId: principal.memberId, permissions: principal.permissions, isSoleActiveMember: activeMembers === 1 };
}

/** The transition descriptors of one record for the caller, from the organization's stored workflow. */
export async function transitionsFor(
  db: Database,
  principal: Principal,
  recordType: RecordType,
  record: RecordFacts,
): Promise<TransitionDescriptor[]> {
  const [def, actor] = await Promise.all([loadWorkflow(db, principal.organizationId, recordType), actorOf(db, principal)]);
  return availableTransitions(def, record, actor);
}
