import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../client';
import { queryRows } from '../client';
import {
  claimAnalyticAccounts,
  claimAnalyticAxes,
  claimDecisions,
  claimFiles,
  claimGroups,
  claimLineDocuments,
  claimLines,
  claimLineShares,
  claims,
  claimSettlements,
  claimSignoffs,
} from '../schema';

/**
 * Hands out the next number of the organization's claim sequence for `year`. The upsert takes a
 * row lock held until the surrounding transaction ends, so concurrent filings queue on it: no
 * duplicates, and a rolled-back filing gives its number back (no gaps).
 */
export async function nextClaimNumber(db: Database, q: { organizationId: string; year: number }): Promise<number> {
  const rows = await queryRows<{ last_value: number | string }>(
    db,
    sql`insert into claim_sequences (organization_id, year, last_value) values (${q.organizationId}, ${q.year}, 1)
        on conflict (organization_id, year) do update set last_value = claim_sequences.last_value + 1
        returning last_value`,
  );
  const value = rows[0]?.last_value;
  if (value === undefined) throw new Error('claim sequence returned no row');
  return Number(value);
}

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

export async function listClaimLines(db: Database, q: { organizationId: string; claimId: string }) {
  return db
    .select()
    .from(claimLines)
    .where(and(eq(claimLines.organizationId, q.organizationId), eq(claimLines.claimId, q.claimId)))
    .orderBy(asc(claimLines.lineNo));
}

export type ClaimLineRow = Awaited<ReturnType<typeof listClaimLines>>[number];

export async function listLineShares(db: Database, q: { organizationId: string; lineIds: string[] }) {
  if (q.lineIds.length === 0) return [];
  return db
    .select({
      lineId: claimLineShares.lineId,
      analyticAccountId: claimLineShares.analyticAccountId,
      percentage: claimLineShares.percentage,
      axisId: claimAnalyticAccounts.axisId,
      accountCode: claimAnalyticAccounts.code,
      accountName: claimAnalyticAccounts.name,
      isProjectAxis: claimAnalyticAxes.isProjectAxis,
    })
    .from(claimLineShares)
    .innerJoin(
      claimAnalyticAccounts,
      and(eq(claimAnalyticAccounts.organizationId, claimLineShares.organizationId), eq(claimAnalyticAccounts.id, claimLineShares.analyticAccountId)),
    )
    .innerJoin(
      claimAnalyticAxes,
      and(eq(claimAnalyticAxes.organizationId, claimAnalyticAccounts.organizationId), eq(claimAnalyticAxes.id, claimAnalyticAccounts.axisId)),
    )
    .where(and(eq(claimLineShares.organizationId, q.organizationId), inArray(claimLineShares.lineId, q.lineIds)))
    .orderBy(asc(claimLineShares.lineId), asc(claimAnalyticAccounts.code), asc(claimLineShares.analyticAccountId));
}

/** Documents actively supporting the lines, oldest attachment first. */
export async function listActiveLineDocuments(db: Database, q: { organizationId: string; lineIds: string[] }) {
  if (q.lineIds.length === 0) return [];
  return db
    .select({ lineId: claimLineDocuments.lineId, fileId: claimLineDocuments.fileId, sha256: claimFiles.sha256, attachedAt: claimLineDocuments.attachedAt })
    .from(claimLineDocuments)
    .innerJoin(claimFiles, and(eq(claimFiles.organizationId, claimLineDocuments.organizationId), eq(claimFiles.id, claimLineDocuments.fileId)))
    .where(
      and(
        eq(claimLineDocuments.organizationId, q.organizationId),
        inArray(claimLineDocuments.lineId, q.lineIds),
        isNull(claimLineDocuments.detachedAt),
      ),
    )
    .orderBy(asc(claimLineDocuments.attachedAt), asc(claimLineDocuments.fileId));
}

/**
 * Lines of OTHER claims actively supported by a document with one of these SHA-256 digests, with
 * what the duplicate signal needs: the claim's state, filing time, whether the line is active, and
 * whether the caller may read the claim.
 */
export async function findClaimsSharingDocuments(
  db: Database,
  q: { organizationId: string; claimId: string; sha256s: string[]; reader: { memberId: string; readsAll: boolean } },
) {
  if (q.sha256s.length === 0) return [];
  const mayRead = q.reader.readsAll
    ? sql<boolean>`true`
    : sql<boolean>`(${claims.claimantMemberId} = ${q.reader.memberId} or exists (
        select 1 from claim_signoffs s where s.organization_id = ${claims.organizationId} and s.claim_id = ${claims.id}
          and ${q.reader.memberId} = any(s.eligible)))`;
  return db
    .select({
      sha256: claimFiles.sha256,
      claimId: claims.id,
      reference: claims.reference,
      state: claims.state,
      createdAt: claims.createdAt,
      lineActive: sql<boolean>`not ${claimLines.withdrawn}`,
      mayRead,
    })
    .from(claimLineDocuments)
    .innerJoin(claimFiles, and(eq(claimFiles.organizationId, claimLineDocuments.organizationId), eq(claimFiles.id, claimLineDocuments.fileId)))
    .innerJoin(claimLines, and(eq(claimLines.organizationId, claimLineDocuments.organizationId), eq(claimLines.id, claimLineDocuments.lineId)))
    .innerJoin(claims, and(eq(claims.organizationId, claimLines.organizationId), eq(claims.id, claimLines.claimId)))
    .where(
      and(
        eq(claimLineDocuments.organizationId, q.organizationId),
        isNull(claimLineDocuments.detachedAt),
        inArray(claimFiles.sha256, q.sha256s),
        ne(claims.id, q.claimId),
      ),
    );
}

export async function listClaimDecisions(db: Database, q: { organizationId: string; claimId: string }) {
  return db
    .select()
    .from(claimDecisions)
    .where(and(eq(claimDecisions.organizationId, q.organizationId), eq(claimDecisions.claimId, q.claimId)))
    .orderBy(asc(claimDecisions.seq));
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

export async function isEligibleSigner(db: Database, q: { organizationId: string; claimId: string; memberId: string }) {
  const rows = await queryRows<{ ok: boolean }>(
    db,
    sql`select exists (select 1 from claim_signoffs where organization_id = ${q.organizationId} and claim_id = ${q.claimId}
        and ${q.memberId} = any(eligible)) as ok`,
  );
  return Boolean(rows[0]?.ok);
}
