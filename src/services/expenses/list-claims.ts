/**
 * One page of the claim list (GET /v1/expenses/claims, DESIGN section 12): `mine` (claims the caller
 * filed), `all` (every claim the caller may read: the read rule of queries/claims.ts, so a member
 * without approve or pay gets what they may read, never a 403) and `to_act` (the claims the caller
 * may sign now, with `your_share`). Read only; never another organization's claim, never a claim the
 * caller may not read, and never the same claim twice across the pages of one walk.
 */
import { CREATED_AT_PATTERN, listClaimRows, type ClaimListQuery, type ClaimListRow, type ClaimListScope } from '../../db/queries/claim-list';
import type { ClaimRow } from '../../db/queries/claims';
import { decodeCursor, encodeCursor, invalidCursor, type CursorBinding, type CursorPosition } from '../../lib/cursor';
import { validationError } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import type { ClaimListPage } from '../../routers/expenses/claims/list-schemas';
import type { ServiceContext } from '../context';
import { loadWorkflow } from '../workflow/workflows';
import { claimAnswer, claimReader, claimTransitions, type ClaimAnswer } from './read-claim';

export type { ClaimListPage };

export interface ListClaimsInput {
  scope?: ClaimListScope;
  state?: string;
  month?: string;
  q?: string;
  limit?: number;
  cursor?: string;
}

export const DEFAULT_CLAIM_LIMIT = 25;

type Sign = NonNullable<ClaimAnswer['available_transitions'][number]['signs']>[number];

/** The shares the caller may sign now on the claim: the `signs` of its approve descriptor. */
export type SignsOf = (ctx: ServiceContext, claim: ClaimRow) => Promise<Sign[]>;

/** The approve descriptor of the claim answer (claimTransitions), so to_act and the answer agree. */
export const approveSigns: SignsOf = async (ctx, claim) => (await claimTransitions(ctx, claim)).find((d) => d.action_key === 'approve')?.signs ?? [];

/** `signsOf` is the engine's descriptor; tests of the paging give their own until the engine signs. */
export async function listClaims(ctx: ServiceContext, input: ListClaimsInput, signsOf: SignsOf = approveSigns): Promise<ClaimListPage> {
  const organizationId = ctx.principal.organizationId;
  const scope = input.scope ?? 'mine';
  const limit = input.limit ?? DEFAULT_CLAIM_LIMIT;
  if (input.state !== undefined) {
    const def = await loadWorkflow(ctx.db, organizationId, 'expense_claim');
    if (!def.states.some((s) => s.key === input.state)) {
      throw validationError('/query/state', `is not a state of the claim workflow (${def.states.map((s) => s.key).join(', ')})`);
    }
  }
  // The cursor is bound to everything that decides which rows come in which order; not to limit.
  const binding: CursorBinding = { sort: 'expense_claims:created_at', order: 'desc', filters: { scope, state: input.state, month: input.month, q: input.q } };
  const secret = await ctx.cursorSecret();
  let after: CursorPosition | undefined;
  if (input.cursor !== undefined) {
    after = decodeCursor(secret, input.cursor, binding);
    if (after.value === null || !CREATED_AT_PATTERN.test(after.value) || !/^[0-9a-f-]{36}$/i.test(after.id)) throw invalidCursor();
  }
  const query: ClaimListQuery = {
    organizationId,
    scope,
    reader: claimReader(ctx),
    state: input.state,
    month: input.month,
    timeZone: ctx.org.timeZone,
    q: input.q,
    after: after ? { value: after.value!, id: after.id } : undefined,
    take: limit + 1,
  };

  const found = scope === 'to_act' ? await toActRows(ctx, query, limit, signsOf) : (await listClaimRows(ctx.db, query)).map((row) => ({ row, signs: undefined }));
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  const claims: ClaimListPage['claims'] = [];
  for (const { row, signs } of page) {
    const { claim } = await claimAnswer(ctx, row);
    claims.push(signs ? { ...claim, your_share: yourShare(signs, ctx.org.baseCurrency) } : claim);
  }
  return {
    claims,
    next_cursor: found.length > limit && last ? encodeCursor(secret, binding, { value: last.row.sortValue, id: last.row.id }) : null,
  };
}

function yourShare(signs: Sign[], base: string): string {
  return formatAmount(
    signs.reduce((sum, s) => sum.plus(s.amount), new Dec(0)),
    base,
  );
}

/**
 * `to_act`: walks the prefiltered candidates in list order, keeping those whose approve descriptor
 * signs something, until `limit + 1` are kept or the candidates run out. The next page's cursor is
 * the last kept claim, so candidates looked at and dropped after it are looked at again (and dropped
 * again) next time, and nothing is ever answered twice.
 */
async function toActRows(ctx: ServiceContext, query: ClaimListQuery, limit: number, signsOf: SignsOf) {
  const kept: { row: ClaimListRow; signs: Sign[] }[] = [];
  let after = query.after;
  const take = Math.min(100, Math.max(query.take, 25));
  for (;;) {
    const rows = await listClaimRows(ctx.db, { ...query, after, take });
    for (const row of rows) {
      const signs = await signsOf(ctx, row);
      if (signs.length > 0) kept.push({ row, signs });
      if (kept.length > limit) return kept;
    }
    const last = rows[rows.length - 1];
    if (rows.length < take || !last) return kept;
    after = { value: last.sortValue, id: last.id };
  }
}
