import { and, asc, eq, isNotNull, or, sql , inArray, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { noneOf, anyOf, cachedInsertReturning, executePrepared, oncePerHandle, preparedSql, withCompiledRowMapping, type Database } from '../client';
import {
  allocations,
  analyticAccounts,
  events,
  receipts,
  receivableDocumentLines,
  receivableDocuments,
  receivableLineShares,
  receivableTimeline,
} from '../schema';
import { isGroupCompanySql } from './customers';
import { columnsOf, decodeJsonRows, jsonRows, jsonRowsFrom } from './json-rows';
import { subscribedEndpointIdsSql, type AppendedEvent, type NewEvent } from './events';
import { attachmentIdsColumn, decodeAttachmentIds } from './files';

export type DocumentRow = typeof receivableDocuments.$inferSelect;
/** A document's line as stored (findLines answers them in line order). */
export type LineRow = typeof receivableDocumentLines.$inferSelect;

const insertLineRows = cachedInsertReturning(receivableDocumentLines);
const insertShareRows = cachedInsertReturning(receivableLineShares);

export async function insertLines(db: Database, values: (typeof receivableDocumentLines.$inferInsert)[]) {
  return insertLineRows(db, values);
}

type NewDocument = typeof receivableDocuments.$inferInsert;
/** A new line: its document and organization are the new document's. */
export type NewDocumentLine = Omit<typeof receivableDocumentLines.$inferInsert, 'id' | 'organizationId' | 'documentId'>;
/** The event telling of the new document: its subject (id, revision) is the document written. */
export type NewDocumentEvent = Pick<NewEvent, 'type' | 'occurredAt' | 'actorMemberId' | 'subjectType' | 'data'>;

/** The document's columns the create gives (the rest keep their defaults). */
const DRAFT_COLUMNS = [
  'organizationId', 'kind', 'state', 'customerId', 'customerReference', 'currency', 'fxRate', 'invoiceDate', 'dueOn', 'paymentTermsDays',
  'preparedBy', 'createdAt', 'reason', 'originalInvoiceId', 'customFields', 'netTotal', 'taxTotal', 'grossAmount', 'grossBase',
  'outstanding', 'outstandingBase', 'projectId', 'multipleProjects',
] as const satisfies readonly (keyof NewDocument)[];

/** A line's columns but the three the statement fills (id by default, organization and document from the new document). */
const LINE_COLUMNS = columnsOf(receivableDocumentLines).filter(([key]) => key !== 'id' && key !== 'organizationId' && key !== 'documentId');

/**
 * A new document, its lines and the event telling of it, in ONE statement (three round trips in one,
 * the create's hot path): the document inserted, its lines inserted from one JSON parameter (one text
 * whatever their number), the event inserted with the document's id and revision as its subject, and
 * the three answered as JSON columns (decoded as their tables' selects answer them), with the webhook
 * endpoints subscribed to the event's type as insertEvent answers them.
 */
const insertDraftStatement = preparedSql<{ document: unknown; lines: unknown; event: unknown; subscribed: string[] | null }>(() => {
  const p = (name: string) => sql.placeholder(name);
  const document = sql.join(DRAFT_COLUMNS.map((key) => sql.identifier(receivableDocuments[key].name)), sql`, `);
  // Each value cast to its column's type; a jsonb sent as JSON text (one encoding on both drivers).
  const documentValues = sql.join(
    DRAFT_COLUMNS.map((key) => {
      const column = receivableDocuments[key];
      return column.columnType === 'PgJsonb' ? sql`${p(key)}::text::jsonb` : sql`${p(key)}::${sql.raw(column.getSQLType())}`;
    }),
    sql`, `,
  );
  const lineNames = sql.join(LINE_COLUMNS.map(([, c]) => sql.identifier(c.name)), sql`, `);
  const lineValues = sql.join(LINE_COLUMNS.map(([, c]) => sql`x.${sql.identifier(c.name)}`), sql`, `);
  const lineRecord = sql.join(LINE_COLUMNS.map(([, c]) => sql`${sql.identifier(c.name)} ${sql.raw(c.getSQLType())}`), sql`, `);
  return sql`with d as (
      insert into ${receivableDocuments} (${document}) values (${documentValues}) returning *
    ), l as (
      insert into ${receivableDocumentLines} (organization_id, document_id, ${lineNames})
      select d.organization_id, d.id, ${lineValues} from d, jsonb_to_recordset(${p('lines')}::text::jsonb) as x(${lineRecord})
      returning *
    ), e as (
      insert into ${events} (organization_id, type, occurred_at, actor_member_id, subject_type, subject_id, subject_revision, data)
      select d.organization_id, ${p('eventType')}::text, ${p('occurredAt')}::timestamptz, ${p('actorMemberId')}::uuid, ${p('subjectType')}::text, d.id, d.revision, ${p('data')}::text::jsonb
      from d
      returning *
    )
    select ${jsonRowsFrom(receivableDocuments, sql`d`, ['id'])} as document,
      ${jsonRowsFrom(receivableDocumentLines, sql`l`, ['line_no'])} as lines,
      ${jsonRowsFrom(events, sql`e`, ['id'])} as event,
      (select ${subscribedEndpointIdsSql(sql`e.organization_id`, sql`e.type`)} from e) as subscribed`;
});

/** The text a value of the document's `key` column is sent as (its column's encoding; a timestamp as ISO text, a jsonb as JSON text). */
function documentValue(key: (typeof DRAFT_COLUMNS)[number], value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (receivableDocuments[key].columnType === 'PgJsonb') return JSON.stringify(value);
  return value;
}

/** Writes a new document, its lines (numbered as given) and its event in one statement; answers the three rows as their selects would. */
export async function insertDocumentWithLinesAndEvent(
  db: Database,
  q: { document: NewDocument; lines: NewDocumentLine[]; event: NewDocumentEvent },
): Promise<{ document: DocumentRow; lines: LineRow[]; event: AppendedEvent }> {
  const values: Record<string, unknown> = {};
  for (const key of DRAFT_COLUMNS) values[key] = documentValue(key, q.document[key]);
  values.lines = JSON.stringify(q.lines.map((line) => Object.fromEntries(LINE_COLUMNS.map(([key, c]) => [c.name, (line as Record<string, unknown>)[key] ?? null]))));
  values.eventType = q.event.type;
  values.occurredAt = q.event.occurredAt.toISOString();
  values.actorMemberId = q.event.actorMemberId ?? null;
  values.subjectType = q.event.subjectType;
  values.data = JSON.stringify(q.event.data ?? {});
  const [row] = await insertDraftStatement(db, values);
  const [document] = decodeJsonRows(receivableDocuments, row!.document);
  const [event] = decodeJsonRows(events, row!.event);
  return {
    document: document!,
    lines: decodeJsonRows(receivableDocumentLines, row!.lines),
    event: { ...event!, subscribedEndpointIds: [...(row!.subscribed ?? [])] },
  };
}

export async function insertShares(db: Database, values: (typeof receivableLineShares.$inferInsert)[]) {
  return insertShareRows(db, values);
}

/** The header, with the project's code and name and the group flag as at `today`. */
export async function findDocument(db: Database, q: { organizationId: string; id: string; today: string }) {
  const [row] = await db
    .select({
      doc: receivableDocuments,
      projectCode: analyticAccounts.code,
      projectName: analyticAccounts.name,
      isGroupTransaction: isGroupCompanySql('receivable_documents.organization_id', 'receivable_documents.customer_id', q.today),
    })
    .from(receivableDocuments)
    .leftJoin(
      analyticAccounts,
      and(eq(analyticAccounts.organizationId, receivableDocuments.organizationId), eq(analyticAccounts.id, receivableDocuments.projectId)),
    )
    .where(and(eq(receivableDocuments.organizationId, q.organizationId), eq(receivableDocuments.id, q.id)));
  return row ? { ...row.doc, projectCode: row.projectCode, projectName: row.projectName, isGroupTransaction: Boolean(row.isGroupTransaction) } : undefined;
}

/**
 * A document with everything its read shows, in one statement: the header (as findDocument), its
 * lines and their shares, its allocations, its timeline and its attachments' ids (each as
 * findLines, findShares, findAllocations, findTimeline and findAttachmentIds order them).
 */
function bundleQuery(db: Database) {
  const d = receivableDocuments;
  const org = sql`${d.organizationId}`;
  const today = sql.placeholder('today') as unknown as string;
  return db
    .select({
      doc: d,
      projectCode: analyticAccounts.code,
      projectName: analyticAccounts.name,
      isGroupTransaction: isGroupCompanySql('receivable_documents.organization_id', 'receivable_documents.customer_id', today),
      lines: jsonRows(receivableDocumentLines, sql`organization_id = ${org} and document_id = ${d.id}`, ['line_no']),
      shares: jsonRows(
        receivableLineShares,
        sql`organization_id = ${org} and line_id in (select l.id from ${receivableDocumentLines} l where l.organization_id = ${org} and l.document_id = ${d.id})`,
        ['line_id', 'position'],
      ),
      allocations: jsonRows(allocations, sql`organization_id = ${org} and (invoice_id = ${d.id} or credit_note_id = ${d.id})`, ['created_at', 'id']),
      timeline: jsonRows(receivableTimeline, sql`organization_id = ${org} and document_id = ${d.id}`, ['decided_at', 'seq']),
      attachmentIds: attachmentIdsColumn(org, 'receivable_document', d.id),
    })
    .from(d)
    .leftJoin(analyticAccounts, and(eq(analyticAccounts.organizationId, d.organizationId), eq(analyticAccounts.id, d.projectId)))
    .where(and(eq(d.organizationId, sql.placeholder('organizationId')), eq(d.id, sql.placeholder('id'))))
    .prepare('receivable_document_bundle');
}

/** The bundle's query, built once per database handle. */
const preparedBundleQuery = oncePerHandle((db) => withCompiledRowMapping(bundleQuery(db)));

export type DocumentBundle = NonNullable<Awaited<ReturnType<typeof findDocumentBundle>>>;

export async function findDocumentBundle(db: Database, q: { organizationId: string; id: string; today: string }) {
  const [row] = await executePrepared(db, preparedBundleQuery(db), { organizationId: q.organizationId, id: q.id, today: q.today });
  if (!row) return undefined;
  return {
    // The row's own header object, completed (not copied: 45 fields).
    doc: Object.assign(row.doc, { projectCode: row.projectCode, projectName: row.projectName, isGroupTransaction: Boolean(row.isGroupTransaction) }),
    lines: decodeJsonRows(receivableDocumentLines, row.lines),
    shares: decodeJsonRows(receivableLineShares, row.shares),
    allocations: decodeJsonRows(allocations, row.allocations),
    timeline: decodeJsonRows(receivableTimeline, row.timeline),
    attachmentIds: decodeAttachmentIds(row.attachmentIds),
  };
}

/** Kind and original invoice of a document, unlocked: tells a caller which rows to lock first. */
export async function findDocumentLink(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select({ kind: receivableDocuments.kind, originalInvoiceId: receivableDocuments.originalInvoiceId })
    .from(receivableDocuments)
    .where(and(eq(receivableDocuments.organizationId, q.organizationId), eq(receivableDocuments.id, q.id)));
  return row;
}

/** The header alone, not locked. */
export async function findDocumentRow(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(receivableDocuments)
    .where(and(eq(receivableDocuments.organizationId, q.organizationId), eq(receivableDocuments.id, q.id)));
  return row;
}

/** The header alone, locked for an update in this transaction. */
export async function lockDocument(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(receivableDocuments)
    .where(and(eq(receivableDocuments.organizationId, q.organizationId), eq(receivableDocuments.id, q.id)))
    .for('update');
  return row;
}

export async function updateDocument(db: Database, q: { organizationId: string; id: string }, set: PgUpdateSetSource<typeof receivableDocuments>) {
  await db
    .update(receivableDocuments)
    .set(set)
    .where(and(eq(receivableDocuments.organizationId, q.organizationId), eq(receivableDocuments.id, q.id)));
}

/**
 * state_changed_at for a change of state decided at `decidedAt` (updateDocument's set): the newest
 * of it and the one stored, so the column stays the newest change on the timeline whatever order
 * decisions are dated in.
 */
export function stateChangedSince(decidedAt: Date): SQL<Date> {
  return sql<Date>`greatest(${receivableDocuments.stateChangedAt}, ${decidedAt.toISOString()}::timestamptz)`;
}

export async function bumpRevision(db: Database, q: { organizationId: string; id: string }) {
  await db
    .update(receivableDocuments)
    .set({ revision: sql`${receivableDocuments.revision} + 1` })
    .where(and(eq(receivableDocuments.organizationId, q.organizationId), eq(receivableDocuments.id, q.id)));
}

export async function findLines(db: Database, q: { organizationId: string; documentId: string }) {
  return db
    .select()
    .from(receivableDocumentLines)
    .where(and(eq(receivableDocumentLines.organizationId, q.organizationId), eq(receivableDocumentLines.documentId, q.documentId)))
    .orderBy(asc(receivableDocumentLines.lineNo));
}

/** Deletes a draft's lines and their shares (a draft update replaces its lines whole). */
export async function deleteLines(db: Database, q: { organizationId: string; documentId: string }) {
  const lineIds = db
    .select({ id: receivableDocumentLines.id })
    .from(receivableDocumentLines)
    .where(and(eq(receivableDocumentLines.organizationId, q.organizationId), eq(receivableDocumentLines.documentId, q.documentId)));
  await db.delete(receivableLineShares).where(and(eq(receivableLineShares.organizationId, q.organizationId), inArray(receivableLineShares.lineId, lineIds)));
  await db
    .delete(receivableDocumentLines)
    .where(and(eq(receivableDocumentLines.organizationId, q.organizationId), eq(receivableDocumentLines.documentId, q.documentId)));
}

export async function findShares(db: Database, q: { organizationId: string; lineIds: string[] }) {
  if (!q.lineIds.length) return [];
  return db
    .select()
    .from(receivableLineShares)
    .where(and(eq(receivableLineShares.organizationId, q.organizationId), anyOf(receivableLineShares.lineId, q.lineIds)))
    .orderBy(asc(receivableLineShares.lineId), asc(receivableLineShares.position));
}

/** Allocations against the document (invoice, debit note) or made from it (credit note), oldest first. */
export async function findAllocations(db: Database, q: { organizationId: string; documentId: string }) {
  return db
    .select()
    .from(allocations)
    .where(
      and(eq(allocations.organizationId, q.organizationId), or(eq(allocations.invoiceId, q.documentId), eq(allocations.creditNoteId, q.documentId))),
    )
    .orderBy(asc(allocations.createdAt), asc(allocations.id));
}

export async function findTimeline(db: Database, q: { organizationId: string; documentId: string }) {
  return db
    .select()
    .from(receivableTimeline)
    .where(and(eq(receivableTimeline.organizationId, q.organizationId), eq(receivableTimeline.documentId, q.documentId)))
    .orderBy(asc(receivableTimeline.decidedAt), asc(receivableTimeline.seq));
}

export async function insertTimelineEntry(db: Database, values: typeof receivableTimeline.$inferInsert) {
  await db.insert(receivableTimeline).values(values);
}

/**
 * Σ gross of the issued credit notes against an invoice; `exceptStates`: leave out credit notes in
 * these states (the cancelled ones, which credit nothing).
 */
export async function issuedCreditsAgainst(db: Database, q: { organizationId: string; invoiceId: string; exceptStates?: string[] }): Promise<string> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${receivableDocuments.grossAmount}), 0)::text` })
    .from(receivableDocuments)
    .where(
      and(
        eq(receivableDocuments.organizationId, q.organizationId),
        eq(receivableDocuments.originalInvoiceId, q.invoiceId),
        eq(receivableDocuments.kind, 'customer_credit_note'),
        isNotNull(receivableDocuments.issuedAt),
        q.exceptStates?.length ? noneOf(receivableDocuments.state, q.exceptStates) : undefined,
      ),
    );
  return row?.total ?? '0';
}

export async function insertReceipt(db: Database, values: typeof receipts.$inferInsert) {
  const [row] = await db.insert(receipts).values(values).returning();
  return row;
}

export async function lockReceipt(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(receipts)
    .where(and(eq(receipts.organizationId, q.organizationId), eq(receipts.id, q.id)))
    .for('update');
  return row;
}

/** Σ amount of the allocations of a source (receipt or credit note) that are not reversed. */
export async function allocatedFrom(db: Database, q: { organizationId: string; receiptId?: string; creditNoteId?: string }): Promise<string> {
  const source = q.receiptId ? eq(allocations.receiptId, q.receiptId) : eq(allocations.creditNoteId, q.creditNoteId ?? '');
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${allocations.amount}), 0)::text` })
    .from(allocations)
    .where(
      and(eq(allocations.organizationId, q.organizationId), source, sql`${allocations.reversesId} is null and ${allocations.reversedById} is null`),
    );
  return row?.total ?? '0';
}

export async function insertAllocation(db: Database, values: typeof allocations.$inferInsert) {
  const [row] = await db.insert(allocations).values(values).returning();
  return row;
}

export async function lockAllocation(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(allocations)
    .where(and(eq(allocations.organizationId, q.organizationId), eq(allocations.id, q.id)))
    .for('update');
  return row;
}

export async function markAllocationReversed(db: Database, q: { organizationId: string; id: string; reversedById: string }) {
  await db
    .update(allocations)
    .set({ reversedById: q.reversedById })
    .where(and(eq(allocations.organizationId, q.organizationId), eq(allocations.id, q.id)));
}

/** The number, date and currency of each of these documents (a receipt's allocations, for one). */
export async function findDocumentReferences(db: Database, q: { organizationId: string; ids: string[] }) {
  if (q.ids.length === 0) return [];
  return db
    .select({ id: receivableDocuments.id, reference: receivableDocuments.reference, invoiceDate: receivableDocuments.invoiceDate, kind: receivableDocuments.kind })
    .from(receivableDocuments)
    .where(and(eq(receivableDocuments.organizationId, q.organizationId), inArray(receivableDocuments.id, q.ids)));
}
