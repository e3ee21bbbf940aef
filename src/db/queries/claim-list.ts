import { and, desc, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../client';
import { claims, claimSignoffEligibles } from '../schema';
import { claimReadableBy, delegatedFromEligible, type ClaimReader } from './claims';
import { KEY_VALUE_PATTERN, keysetCondition } from './keyset';
import { likePattern } from './like-pattern';

/**
 * The claim list (GET /v1/expenses/claims): keyset pages over (created_at, id) descending, every
 * filter in the same statement, always within one organization. Which claims a scope covers is
 * decided here; whether a `to_act` candidate is really the caller's to sign is the service's (the
 * approve descriptor), so this statement is only its prefilter.
 */

export { CLAIM_LIST_SCOPES, type ClaimListScope } from '../../domain/expenses';
import type { ClaimListScope } from '../../domain/expenses';

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
export const CREATED_AT_PATTERN = KEY_VALUE_PATTERN.timestamptz;

/**
 * `to_act` prefilter: a claim named, in its current round and state, by an unsigned sign-off whose
 * `eligible` holds the caller, or a member who delegated to the caller for today (the delegation's
 * scope rechecked on the sign-off; the engine then judges each candidate exactly). For the caller and
 * each such delegator it walks claim_signoff_eligibles newest claim first (its primary key's order),
 * keeping the first `take` claims after the cursor that pass the page's filters: the page is among
 * them, so a page reads about `take` entries per member it acts for, whatever the number of sign-offs
 * that name them and whatever the page number. Each candidate's claim row is the one the walk joined
 * (to check its round and state): the page reads every claim once, not once more by its key. It is
 * a common table expression named `claims`, which the page's select reads in place of the table
 * (within it, not being recursive, `claims` is still the table).
 */
function toActCandidates(q: ClaimListQuery): SQL {
  const { memberId, today } = q.reader;
  const e = claimSignoffEligibles;
  const actingFor = sql`array[${memberId}::text] || array(
    select d.delegator_member_id::text from delegations d
    where d.organization_id = ${q.organizationId} and d.delegate_member_id = ${memberId}::uuid and d.active
      and d.valid_from <= ${today}::date and d.valid_to >= ${today}::date)`;
  const after = q.after ? sql` and ${keysetCondition(e.claimCreatedAt, e.claimId, 'desc', q.after, 'timestamptz')}` : sql``;
  const filters = filterConditions(q);
  // The lateral's `claims` (the sign-off's claim, in that round and state) is what the filters name;
  // a claim reached through several members it is acted for comes once.
  return sql`select distinct on (x.created_at, x.id) x.* from unnest(${actingFor}) as acting(member_id)
    cross join lateral (
      select distinct on (${e.claimCreatedAt}, ${e.claimId}) ${claims}.*
      from ${e} join ${claims} on ${claims.organizationId} = ${e.organizationId} and ${claims.id} = ${e.claimId}
        and ${claims.round} = ${e.round} and ${claims.state} = ${e.state}
      where ${e.organizationId} = ${q.organizationId} and ${e.memberId} = acting.member_id${after}
        and ${filters.length ? and(...filters) : sql`true`}
        and (acting.member_id = ${memberId}::text or exists (
          select 1 from claim_signoffs s where s.organization_id = ${e.organizationId} and s.id = ${e.signoffId} and ${delegatedFromEligible(memberId, today)}))
      order by ${e.claimCreatedAt} desc, ${e.claimId} desc
      limit ${q.take}) x
    order by x.created_at desc, x.id desc`;
}

function scopeCondition(q: ClaimListQuery): SQL {
  if (q.scope === 'mine') return sql`${claims.claimantMemberId} = ${q.reader.memberId}::uuid`;
  return claimReadableBy(q.reader);
}

/** The page's filters on the claim (state, month, text), whatever the scope. */
function filterConditions(q: ClaimListQuery): SQL[] {
  const out: SQL[] = [];
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
  return out;
}

function conditions(q: ClaimListQuery): SQL[] {
  const out: SQL[] = [sql`${claims.organizationId} = ${q.organizationId}`, scopeCondition(q), ...filterConditions(q)];
  if (q.after) out.push(keysetCondition(claims.createdAt, claims.id, 'desc', q.after, 'timestamptz'));
  return out;
}

/** Up to `take` claims of the scope and filters, newest created first (ties by id), after the cursor. */
export async function listClaimRows(db: Database, q: ClaimListQuery) {
  const fields = { claim: claims, sortValue: sql<string>`${claims.createdAt}::text` };
  // to_act: the candidates (scope, filters and cursor applied within) stand in for the table.
  const select =
    q.scope === 'to_act'
      ? db.with(db.$with('claims', { id: claims.id }).as(toActCandidates(q))).select(fields).from(claims)
      : db.select(fields).from(claims).where(and(...conditions(q)));
  const rows = await select.orderBy(desc(claims.createdAt), desc(claims.id)).limit(q.take);
  return rows.map((r) => ({ ...r.claim, sortValue: r.sortValue }));
}

export type ClaimListRow = Awaited<ReturnType<typeof listClaimRows>>[number];
