import { and, asc, desc, eq, isNull, max, ne, sql , inArray } from 'drizzle-orm';
import { insertInChunks, anyOf, anyOfPlaceholder, noneOf, preparedSelect } from '../client';
import type { Database } from '../client';
import {
  analyticAccounts,
  analyticAxes,
  claimDecisions,
  claimGroups,
  claimLineDocumentDetachments,
  claimLines,
  claimLineShares,
  claims,
  claimSettlements,
  claimSignoffs,
  fileAttachments,
  files,
} from '../schema';

export async function insertClaim(db: Database, values: typeof claims.$inferInsert) {
  const [row] = await db.insert(claims).values(values).returning();
  if (!row) throw new Error('claim insert returned no row');
  return row;
}

export async function findClaim(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(claims)
    .where(and(eq(claims.organizationId, q.organizationId), eq(claims.id, q.id)));
  return row;
}

export type ClaimRow = NonNullable<Awaited<ReturnType<typeof findClaim>>>;

/**
 * Who reads: the member, whether their permissions let them read every claim (approvers, payers),
 * and the organization's today (a delegation counts only on the days it runs).
 */
export interface ClaimReader {
  memberId: string;
  readsAll: boolean;
  /** The organization's today (YYYY-MM-DD). */
  today: string;
}

/**
 * Whether `memberId` holds, on `today`, an active delegation from a member of the sign-off `s`'s
 * `eligible` that covers the sign-off (scope all; or its grant, its axis or its analytic account).
 * `s` is the alias of a claim_signoffs row in the surrounding statement. One hop only: the delegator
 * must be eligible in their own right, never through a delegation of their own.
 */
export function delegatedFromEligible(memberId: string, today: string) {
  return sql<boolean>`exists (
    select 1 from delegations d
    where d.organization_id = s.organization_id and d.delegate_member_id = ${memberId}::uuid and d.active
      and d.valid_from <= ${today}::date and d.valid_to >= ${today}::date
      and d.delegator_member_id::text = any(s.eligible)
      and (d.scope = 'all'
        or (d.scope = 'analytic_account' and d.analytic_account_id = s.analytic_account_id)
        or (d.scope = 'axis' and d.axis_id = s.axis_id)
        or (d.scope = 'grant' and s.authorities @> jsonb_build_array(jsonb_build_object('member_id', d.delegator_member_id::text, 'grant_id', d.grant_id::text)))))`;
}

/**
 * The one rule of who may read a claim, as a predicate on the `claims` row: the claimant; whoever
 * reads every claim; a member eligible on one of its sign-offs (escalation hops included: the engine
 * adds them to `eligible`), or who signed one; and a delegate of an eligible member (see
 * delegatedFromEligible). Reading one claim, the list and disclosing the references of possible
 * duplicates all use it, so they cannot disagree.
 */
export function claimReadableBy(reader: ClaimReader) {
  return reader.readsAll
    ? sql<boolean>`true`
    : sql<boolean>`(${claims.claimantMemberId} = ${reader.memberId} or exists (
        select 1 from claim_signoffs s where s.organization_id = ${claims.organizationId} and s.claim_id = ${claims.id}
          and (${reader.memberId} = any(s.eligible) or s.signed_actor_member_id = ${reader.memberId}::uuid
            or s.passed_over @> jsonb_build_array(jsonb_build_object('member_id', ${reader.memberId}::text))
            or ${delegatedFromEligible(reader.memberId, reader.today)})))`;
}

/** The claim when it exists in the organization and the reader may read it (see claimReadableBy). */
export async function findReadableClaim(db: Database, q: { organizationId: string; id: string; reader: ClaimReader }) {
  const [row] = await db
    .select()
    .from(claims)
    .where(and(eq(claims.organizationId, q.organizationId), eq(claims.id, q.id), claimReadableBy(q.reader)));
  return row;
}

/**
 * Whether the reader may read the claim a claim line or a settlement belongs to (claimReadableBy):
 * who may read a document bound to one of them.
 */
export async function isClaimOfRecordReadable(
  db: Database,
  q: { organizationId: string; recordType: 'expense_claim_line' | 'expense_claim_settlement'; recordId: string; reader: ClaimReader },
): Promise<boolean> {
  const claimId =
    q.recordType === 'expense_claim_line'
      ? db.select({ id: claimLines.claimId }).from(claimLines).where(and(eq(claimLines.organizationId, q.organizationId), eq(claimLines.id, q.recordId)))
      : db
          .select({ id: claimSettlements.claimId })
          .from(claimSettlements)
          .where(and(eq(claimSettlements.organizationId, q.organizationId), eq(claimSettlements.id, q.recordId)));
  const [row] = await db
    .select({ id: claims.id })
    .from(claims)
    .where(and(eq(claims.organizationId, q.organizationId), inArray(claims.id, claimId), claimReadableBy(q.reader)));
  return Boolean(row);
}

/** Locks the claim row for the rest of the transaction (writes against one claim queue). */
export async function lockClaim(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(claims)
    .where(and(eq(claims.organizationId, q.organizationId), eq(claims.id, q.id)))
    .for('update');
  return row;
}

export async function bumpClaimRevision(db: Database, q: { organizationId: string; id: string; set?: Partial<typeof claims.$inferInsert> }) {
  const [row] = await db
    .update(claims)
    .set({ ...q.set, revision: sql`${claims.revision} + 1` })
    .where(and(eq(claims.organizationId, q.organizationId), eq(claims.id, q.id)))
    .returning();
  return row;
}

export async function findClaimGroup(db: Database, q: { organizationId: string; id: string }) {
  const [row] = await db
    .select()
    .from(claimGroups)
    .where(and(eq(claimGroups.organizationId, q.organizationId), eq(claimGroups.id, q.id)));
  return row;
}

export async function insertClaimGroup(db: Database, values: typeof claimGroups.$inferInsert) {
  const [row] = await db.insert(claimGroups).values(values).returning();
  return row;
}

/** Marks the group retired; undefined when the organization has no such group. */
export async function retireClaimGroupRow(db: Database, q: { organizationId: string; id: string; now: Date }) {
  const [row] = await db
    .update(claimGroups)
    .set({ retiredAt: q.now })
    .where(and(eq(claimGroups.organizationId, q.organizationId), eq(claimGroups.id, q.id)))
    .returning();
  return row;
}

export async function listClaimLines(db: Database, q: { organizationId: string; claimId: string }) {
  return db
    .select()
    .from(claimLines)
    .where(and(eq(claimLines.organizationId, q.organizationId), eq(claimLines.claimId, q.claimId)))
    .orderBy(asc(claimLines.lineNo));
}

export type ClaimLineRow = Awaited<ReturnType<typeof listClaimLines>>[number];

/** The lines of several claims (a page of the claim list) in one statement, by claim then line number. */
export async function listLinesOfClaims(db: Database, q: { organizationId: string; claimIds: string[] }) {
  if (q.claimIds.length === 0) return [];
  return db
    .select()
    .from(claimLines)
    .where(and(eq(claimLines.organizationId, q.organizationId), anyOf(claimLines.claimId, q.claimIds)))
    .orderBy(asc(claimLines.claimId), asc(claimLines.lineNo));
}

/**
 * The figures of every line of several claims (what the approval engine's amounts and a claim's
 * derived fields read, nothing more), in listLinesOfClaims' order.
 */
export async function listLineFiguresOfClaims(db: Database, q: { organizationId: string; claimIds: string[] }) {
  if (q.claimIds.length === 0) return [];
  return lineFiguresStatement(db, { organizationId: q.organizationId, claimIds: q.claimIds });
}

const lineFiguresStatement = preparedSelect('claim_line_figures_of', (db) =>
  db
    .select({
      id: claimLines.id,
      claimId: claimLines.claimId,
      lineNo: claimLines.lineNo,
      withdrawn: claimLines.withdrawn,
      currency: claimLines.currency,
      amount: claimLines.amount,
      baseAmount: claimLines.baseAmount,
      categoryId: claimLines.categoryId,
      supplierName: claimLines.supplierName,
      reimbursementBasis: claimLines.reimbursementBasis,
    })
    .from(claimLines)
    .where(and(eq(claimLines.organizationId, sql.placeholder('organizationId')), anyOfPlaceholder(claimLines.claimId, 'claimIds')))
    .orderBy(asc(claimLines.claimId), asc(claimLines.lineNo)),
);

/** The line of the claim, or undefined. */
export async function findClaimLine(db: Database, q: { organizationId: string; claimId: string; lineId: string }) {
  const [row] = await db
    .select()
    .from(claimLines)
    .where(and(eq(claimLines.organizationId, q.organizationId), eq(claimLines.claimId, q.claimId), eq(claimLines.id, q.lineId)));
  return row;
}

/** The number the next line of the claim gets (1 for the first); call with the claim locked. */
export async function nextClaimLineNo(db: Database, q: { organizationId: string; claimId: string }): Promise<number> {
  const [row] = await db
    .select({ n: max(claimLines.lineNo) })
    .from(claimLines)
    .where(and(eq(claimLines.organizationId, q.organizationId), eq(claimLines.claimId, q.claimId)));
  return Number(row?.n ?? 0) + 1;
}

export async function insertClaimLine(db: Database, values: typeof claimLines.$inferInsert) {
  const [row] = await db.insert(claimLines).values(values).returning();
  if (!row) throw new Error('claim line insert returned no row');
  return row;
}

export async function insertLineShares(
  db: Database,
  q: { organizationId: string; lineId: string; shares: { analyticAccountId: string; percentage: string }[] },
) {
  if (q.shares.length === 0) return;
  const rows = q.shares.map((s) => ({ organizationId: q.organizationId, lineId: q.lineId, analyticAccountId: s.analyticAccountId, percentage: s.percentage }));
  await insertInChunks(rows, (chunk) => db.insert(claimLineShares).values(chunk));
}

/** Marks the line withdrawn; false when the claim has no such line. */
export async function withdrawClaimLineRow(db: Database, q: { organizationId: string; claimId: string; lineId: string }): Promise<boolean> {
  const rows = await db
    .update(claimLines)
    .set({ withdrawn: true })
    .where(and(eq(claimLines.organizationId, q.organizationId), eq(claimLines.claimId, q.claimId), eq(claimLines.id, q.lineId)))
    .returning({ id: claimLines.id });
  return rows.length > 0;
}

/** What a share answers: its account, percentage, the account's axis, code and name, and whether the axis is the project axis. */
const shareColumns = {
  lineId: claimLineShares.lineId,
  analyticAccountId: claimLineShares.analyticAccountId,
  percentage: claimLineShares.percentage,
  axisId: analyticAccounts.axisId,
  accountCode: analyticAccounts.code,
  accountName: analyticAccounts.name,
  isProjectAxis: analyticAxes.isProjectAxis,
};

const shareAccount = and(eq(analyticAccounts.organizationId, claimLineShares.organizationId), eq(analyticAccounts.id, claimLineShares.analyticAccountId));
const accountAxis = and(eq(analyticAxes.organizationId, analyticAccounts.organizationId), eq(analyticAxes.id, analyticAccounts.axisId));

export async function listLineShares(db: Database, q: { organizationId: string; lineIds: string[] }) {
  if (q.lineIds.length === 0) return [];
  return db
    .select(shareColumns)
    .from(claimLineShares)
    .innerJoin(analyticAccounts, shareAccount)
    .innerJoin(analyticAxes, accountAxis)
    .where(and(eq(claimLineShares.organizationId, q.organizationId), anyOf(claimLineShares.lineId, q.lineIds)))
    .orderBy(asc(claimLineShares.lineId), asc(analyticAccounts.code), asc(claimLineShares.analyticAccountId));
}

/**
 * The shares of every line (withdrawn ones included) of several claims, in listLineShares' order: by
 * claim rather than by line, so it goes out beside listLinesOfClaims instead of after it.
 */
export async function listSharesOfClaims(db: Database, q: { organizationId: string; claimIds: string[] }) {
  if (q.claimIds.length === 0) return [];
  return sharesOfClaimsStatement(db, { organizationId: q.organizationId, claimIds: q.claimIds });
}

const sharesOfClaimsStatement = preparedSelect('claim_shares_of', (db) =>
  db
    .select(shareColumns)
    .from(claimLineShares)
    .innerJoin(claimLines, and(eq(claimLines.organizationId, claimLineShares.organizationId), eq(claimLines.id, claimLineShares.lineId)))
    .innerJoin(analyticAccounts, shareAccount)
    .innerJoin(analyticAxes, accountAxis)
    .where(and(eq(claimLineShares.organizationId, sql.placeholder('organizationId')), anyOfPlaceholder(claimLines.claimId, 'claimIds')))
    .orderBy(asc(claimLineShares.lineId), asc(analyticAccounts.code), asc(claimLineShares.analyticAccountId)),
);

/**
 * Files bound to claim lines (file_attachments, record_type 'expense_claim_line') that were not
 * detached from their line since: the documents actively supporting a line.
 */
const activeLineDocument = (organizationId: string) =>
  and(
    eq(fileAttachments.organizationId, organizationId),
    eq(fileAttachments.recordType, 'expense_claim_line'),
    isNull(claimLineDocumentDetachments.fileId),
  );

const detachmentJoin = and(
  eq(claimLineDocumentDetachments.organizationId, fileAttachments.organizationId),
  eq(claimLineDocumentDetachments.fileId, fileAttachments.fileId),
);

/** Documents actively supporting the lines, oldest attachment first. */
export async function listActiveLineDocuments(db: Database, q: { organizationId: string; lineIds: string[] }) {
  if (q.lineIds.length === 0) return [];
  return db
    .select({ lineId: fileAttachments.recordId, fileId: fileAttachments.fileId, sha256: files.sha256, attachedAt: fileAttachments.attachedAt })
    .from(fileAttachments)
    .innerJoin(files, and(eq(files.organizationId, fileAttachments.organizationId), eq(files.id, fileAttachments.fileId)))
    .leftJoin(claimLineDocumentDetachments, detachmentJoin)
    .where(and(activeLineDocument(q.organizationId), anyOf(fileAttachments.recordId, q.lineIds)))
    .orderBy(asc(fileAttachments.recordId), asc(fileAttachments.ordinal));
}

/** Records that a document bound to a line stopped supporting it; false when it is not an active document of the line. */
export async function detachLineDocumentRow(db: Database, q: { organizationId: string; lineId: string; fileId: string; now: Date }) {
  const [bound] = await db
    .select({ fileId: fileAttachments.fileId })
    .from(fileAttachments)
    .leftJoin(claimLineDocumentDetachments, detachmentJoin)
    .where(and(activeLineDocument(q.organizationId), eq(fileAttachments.recordId, q.lineId), eq(fileAttachments.fileId, q.fileId)));
  if (!bound) return false;
  await db.insert(claimLineDocumentDetachments).values({ organizationId: q.organizationId, fileId: q.fileId, detachedAt: q.now });
  return true;
}

/**
 * Lines of OTHER claims actively supported by a document with one of these SHA-256 digests (files.sha256,
 * through the files_org_sha256 index), with what the duplicate signal needs: the claim's state, filing
 * time, whether the line is active, and whether the caller may read the claim.
 */
export async function findClaimsSharingDocuments(
  db: Database,
  q: { organizationId: string; claimId: string; sha256s: string[]; reader: ClaimReader },
) {
  if (q.sha256s.length === 0) return [];
  const mayRead = claimReadableBy(q.reader);
  return db
    .select({
      sha256: files.sha256,
      claimId: claims.id,
      reference: claims.reference,
      state: claims.state,
      createdAt: claims.createdAt,
      lineActive: sql<boolean>`not ${claimLines.withdrawn}`,
      mayRead,
    })
    .from(files)
    .innerJoin(fileAttachments, and(eq(fileAttachments.organizationId, files.organizationId), eq(fileAttachments.fileId, files.id)))
    .leftJoin(claimLineDocumentDetachments, detachmentJoin)
    .innerJoin(claimLines, and(eq(claimLines.organizationId, fileAttachments.organizationId), eq(claimLines.id, fileAttachments.recordId)))
    .innerJoin(claims, and(eq(claims.organizationId, claimLines.organizationId), eq(claims.id, claimLines.claimId)))
    .where(and(eq(files.organizationId, q.organizationId), anyOf(files.sha256, q.sha256s), activeLineDocument(q.organizationId), ne(claims.id, q.claimId)));
}

export async function listClaimDecisions(db: Database, q: { organizationId: string; claimId: string }) {
  return db
    .select()
    .from(claimDecisions)
    .where(and(eq(claimDecisions.organizationId, q.organizationId), eq(claimDecisions.claimId, q.claimId)))
    .orderBy(asc(claimDecisions.seq));
}

/**
 * For each of the claims, its latest decision (highest seq) out of one of `fromStates`: one statement
 * for a page of claims. Claims without such a decision have no row.
 */
export async function latestDecisionsFrom(db: Database, q: { organizationId: string; claimIds: string[]; fromStates: string[] }) {
  if (q.claimIds.length === 0 || q.fromStates.length === 0) return [];
  return db
    .selectDistinctOn([claimDecisions.claimId], { claimId: claimDecisions.claimId, decidedAt: claimDecisions.decidedAt })
    .from(claimDecisions)
    .where(
      and(
        eq(claimDecisions.organizationId, q.organizationId),
        anyOf(claimDecisions.claimId, q.claimIds),
        anyOf(claimDecisions.fromState, q.fromStates),
      ),
    )
    .orderBy(asc(claimDecisions.claimId), desc(claimDecisions.seq));
}

/** The seq the next decision on the claim gets (1 for the first); call with the claim locked. */
export async function nextClaimDecisionSeq(db: Database, q: { organizationId: string; claimId: string }): Promise<number> {
  const [row] = await db
    .select({ n: max(claimDecisions.seq) })
    .from(claimDecisions)
    .where(and(eq(claimDecisions.organizationId, q.organizationId), eq(claimDecisions.claimId, q.claimId)));
  return Number(row?.n ?? 0) + 1;
}

export async function insertClaimDecision(db: Database, values: typeof claimDecisions.$inferInsert) {
  const [row] = await db.insert(claimDecisions).values(values).returning();
  return row;
}

export async function insertClaimSettlement(db: Database, values: typeof claimSettlements.$inferInsert) {
  const [row] = await db.insert(claimSettlements).values(values).returning();
  if (!row) throw new Error('claim settlement insert returned no row');
  return row;
}

/** Settlements of the claim, newest first. */
export async function listClaimSettlements(db: Database, q: { organizationId: string; claimId: string }) {
  return db
    .select()
    .from(claimSettlements)
    .where(and(eq(claimSettlements.organizationId, q.organizationId), eq(claimSettlements.claimId, q.claimId)))
    .orderBy(desc(claimSettlements.settledAt), desc(claimSettlements.id));
}

export async function listClaimSignoffs(db: Database, q: { organizationId: string; claimId: string; state?: string }) {
  return db
    .select()
    .from(claimSignoffs)
    .where(
      and(
        eq(claimSignoffs.organizationId, q.organizationId),
        eq(claimSignoffs.claimId, q.claimId),
        q.state === undefined ? undefined : eq(claimSignoffs.state, q.state),
      ),
    )
    .orderBy(asc(claimSignoffs.accountCode), asc(claimSignoffs.analyticAccountId));
}

// ---------------------------------------------------------------------------------------------
// Claim lines over REST (add, change, withdraw): the mileage year, line updates, shares and documents.

/**
 * Kilometres the claimant already claimed in the calendar year: active mileage lines of their claims
 * whose state is not one of `excludedStates` (rejected, cancelled), expense date in the year, all but
 * `exceptLineId` (the line being priced again).
 */
export async function claimantMileageKmInYear(
  db: Database,
  q: { organizationId: string; memberId: string; year: string; excludedStates: string[]; exceptLineId?: string },
): Promise<string> {
  const [row] = await db
    .select({ km: sql<string | null>`sum(${claimLines.quantity})` })
    .from(claimLines)
    .innerJoin(claims, and(eq(claims.organizationId, claimLines.organizationId), eq(claims.id, claimLines.claimId)))
    .where(
      and(
        eq(claimLines.organizationId, q.organizationId),
        eq(claims.claimantMemberId, q.memberId),
        eq(claimLines.type, 'mileage'),
        eq(claimLines.withdrawn, false),
        sql`${claimLines.expenseDate} between ${`${q.year}-01-01`} and ${`${q.year}-12-31`}`,
        q.excludedStates.length ? noneOf(claims.state, q.excludedStates) : undefined,
        q.exceptLineId ? ne(claimLines.id, q.exceptLineId) : undefined,
      ),
    );
  return String(row?.km ?? '0');
}

/** Rewrites a line's fields (its number, type and claim never change). */
export async function updateClaimLineRow(
  db: Database,
  q: { organizationId: string; lineId: string; set: Partial<Omit<typeof claimLines.$inferInsert, 'organizationId' | 'id' | 'claimId' | 'lineNo' | 'type'>> },
) {
  const [row] = await db
    .update(claimLines)
    .set(q.set)
    .where(and(eq(claimLines.organizationId, q.organizationId), eq(claimLines.id, q.lineId)))
    .returning();
  return row;
}

/** Removes every share of the line (before writing the new ones). */
export async function deleteLineShares(db: Database, q: { organizationId: string; lineId: string }) {
  await db.delete(claimLineShares).where(and(eq(claimLineShares.organizationId, q.organizationId), eq(claimLineShares.lineId, q.lineId)));
}

/** A document detached from this very line supports it again (sent back in the line's documents). */
export async function reattachLineDocuments(db: Database, q: { organizationId: string; lineId: string; fileIds: string[] }) {
  if (q.fileIds.length === 0) return;
  const boundHere = db
    .select({ fileId: fileAttachments.fileId })
    .from(fileAttachments)
    .where(
      and(
        eq(fileAttachments.organizationId, q.organizationId),
        eq(fileAttachments.recordType, 'expense_claim_line'),
        eq(fileAttachments.recordId, q.lineId),
        anyOf(fileAttachments.fileId, q.fileIds),
      ),
    );
  await db
    .delete(claimLineDocumentDetachments)
    .where(and(eq(claimLineDocumentDetachments.organizationId, q.organizationId), inArray(claimLineDocumentDetachments.fileId, boundHere)));
}
