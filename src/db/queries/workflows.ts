import { and, count, eq } from 'drizzle-orm';
import type { Database } from '../client';
import { members, workflows } from '../schema';
import type { RecordType, WorkflowDefinition } from '../../domain/workflow';

export async function findWorkflow(db: Database, q: { organizationId: string; recordType: RecordType }): Promise<WorkflowDefinition | undefined> {
  const [row] = await db
    .select({ definition: workflows.definition })
    .from(workflows)
    .where(and(eq(workflows.organizationId, q.organizationId), eq(workflows.recordType, q.recordType)));
  return row?.definition;
}

export async function insertWorkflow(db: Database, q: { organizationId: string; definition: WorkflowDefinition }) {
  await db.insert(workflows).values({ organizationId: q.organizationId, recordType: q.definition.record_type, definition: q.definition });
}

export async function countActiveMembers(db: Database, q: { organizationId: string }): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.organizationId, q.organizationId), eq(members.active, true)));
  return Number(row?.n ?? 0);
}
