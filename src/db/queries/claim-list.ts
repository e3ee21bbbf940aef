import { and, desc, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../client';
import { claims } from '../schema';
import { claimReadableBy, delegatedFromEligible, type ClaimReader } from './claims';
import { likePattern } from './receivable-document-list';

/**
 * The claim list (GET /v1/expenses/claims): keyset pages over (created_at, id) descending, every
 * filter in the same statement, always within one organization. Which claims a scope covers is
 * decided here; whether a `to_act` candidate is really the caller's to sign is the service's (the
 * approve descriptor), so this statement is only its prefilter.
 */

export const CLAIM_LIST_SCOPES = ['mine', 'to_act', 'all'] as const;
export type ClaimListScope = (typeof CLAIM_LIST_SCOPES)[number];

export interface ClaimListQuery {
  organizationId: string;
  scope: ClaimListScope;
  reader: ClaimReader;
  state?: string;
  /** `YYYY-MM`: created in that month of the organization's time zone. */
  month?: string;
  timeZone: string;
  q?: string;
  /** The last row of the previous page (or of the candidates already looked at): created_at as text, and id. */
  after?: { value: string; id: string };
  take: number;
}

/** What a created_at cursor value looks like (the text form of a timestamptz), checked before it reaches SQL. */
export const CREATED_AT_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

/**
 * `to_act` prefilter: an unsigned sign-off of the claim's current round and state whose `eligible`
 * holds the caller, or a member who delegated to the caller for today.
 */
function openSignoffFor(reader: ClaimReader): SQL {
  return sql`exists (
    select 1 from claim_signoffs s
    where s.organization_id = ${claims.organizationId} and s.claim_id = ${claims.id}
      and s.round = ${claims.round} and s.state = ${claims.state} and s.signature_id is null
      and (${reader.memberId} = any(s.eligible) or ${delegatedFromEligible(reader.memberId, reader.today)}))`;
}

function scopeCondition(q: ClaimListQuery): SQL {
  if (q.scope === 'mine') return sql`${claims.claimantMemberId} = ${q.reader.memberId}::uuid`;
  if (q.scope === 'to_act') return openSignoffFor(q.reader);
  return claimReadableBy(q.reader);
}

function conditions(q: ClaimListQuery): SQL[] {
  const out: SQL[] = [sql`${claims.organizationId} = ${q.organizationId}`, scopeCondition(q)];
  if (q.state !== undefined) out.push(sql`${claims.state} = ${q.state}`);
  if (q.month !== undefined) {
    // The month's bounds in the organization's time zone, so the created_at index serves the range.
    const first = `${q.month}-01`;
    out.push(sql`${claims.createdAt} >= (${first}::date::timestamp at time zone ${q.timeZone})`);
    out.push(sql`${claims.createdAt} < ((${first}::date + interval '1 month')::timestamp at time zone ${q.timeZone})`);
  }
  if (q.q !== undefined) {
    const pattern = likePattern(q.q);
    out.push(sql`(${claims.reference} ilike ${pattern} or ${claims.title} ilike ${pattern})`);
  }
  if (q.after) out.push(sql`(${claims.createdAt}, ${claims.id}) < (${q.after.value}::timestamptz, ${q.after.id}::uuid)`);
  return out;
}

/** Up to `take` claims of the scope and filters, newest created first (ties by id), after the cursor. */
export async function listClaimRows(db: Database, q: ClaimListQuery) {
  const rows = await db
    .select({ claim: claims, sortValue: sql<string>`${claims.createdAt}::text` })
    .from(claims)
    .where(and(...conditions(q)))
    .orderBy(desc(claims.createdAt), desc(claims.id))
    .limit(q.take);
  return rows.map((r) => ({ ...r.claim, sortValue: r.sortValue }));
}

export type ClaimListRow = Awaited<ReturnType<typeof listClaimRows>>[number];
