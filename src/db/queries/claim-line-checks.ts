import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../client';
import { claimLines } from '../schema';

/**
 * The claim lines whose e-invoice is checked at LHDN (services/einvoicing/claim-line-checks.ts): a
 * line on `einvoice_company` with a due time is waiting for its check.
 */

export type ClaimLineRow = typeof claimLines.$inferSelect;

/** Up to `take` of the organization's lines due for a check at `now`, the longest waiting first. */
export async function findClaimLinesDueForCheck(db: Database, q: { organizationId: string; now: Date; take: number }): Promise<ClaimLineRow[]> {
  return db
    .select()
    .from(claimLines)
    .where(and(eq(claimLines.organizationId, q.organizationId), isNotNull(claimLines.einvoiceCheckDueAt), lte(claimLines.einvoiceCheckDueAt, q.now), eq(claimLines.documentBasis, 'einvoice_company')))
    .orderBy(asc(claimLines.einvoiceCheckDueAt))
    .limit(q.take);
}

/** Records a check's outcome on a line, only while the line still names the same e-invoice; answers whether it did. */
export async function updateClaimLineCheck(
  db: Database,
  q: { organizationId: string; id: string; einvoiceUuid: string; set: Partial<Pick<ClaimLineRow, 'einvoiceValidatedAt' | 'einvoiceCheckedAt' | 'einvoiceCheckDetail' | 'einvoiceCheckDueAt'>> },
): Promise<boolean> {
  const rows = await db
    .update(claimLines)
    .set(q.set)
    .where(and(eq(claimLines.organizationId, q.organizationId), eq(claimLines.id, q.id), eq(claimLines.einvoiceUuid, q.einvoiceUuid)))
    .returning({ id: claimLines.id });
  return rows.length > 0;
}

/** When the organization's next line check is due (null: none waiting). */
export async function nextClaimLineCheckDue(db: Database, q: { organizationId: string }): Promise<string | null> {
  const [next] = await db
    .select({ at: sql<string | null>`min(${claimLines.einvoiceCheckDueAt})` })
    .from(claimLines)
    .where(and(eq(claimLines.organizationId, q.organizationId), eq(claimLines.documentBasis, 'einvoice_company')));
  return next?.at ?? null;
}

/** The organizations with lines due for a check at `now` (the MyInvois sweep, run by the server across organizations). */
export async function findOrganizationsWithLineChecksDue(db: Database, q: { now: Date }): Promise<string[]> {
  const rows = await db
    .selectDistinct({ organizationId: claimLines.organizationId })
    .from(claimLines)
    .where(and(isNotNull(claimLines.einvoiceCheckDueAt), lte(claimLines.einvoiceCheckDueAt, q.now), sql`${claimLines.documentBasis} = 'einvoice_company'`));
  return rows.map((r) => r.organizationId);
}
