/**
 * One page of the claim list (GET /v1/expenses/claims, docs/design.md §12): `mine` (claims the caller
 * filed), `all` (every claim the caller may read: the read rule of queries/claims.ts, so a member
 * without approve or pay gets what they may read, never a 403) and `to_act` (the claims the caller
 * may sign now, with `your_share`). Read only; never another organization's claim, never a claim the
 * caller may not read, and never the same claim twice across the pages of one walk.
 */
import { CREATED_AT_PATTERN, listClaimRows, type ClaimListQuery, type ClaimListRow, type ClaimListScope } from '../../db/queries/claim-list';
import type { ClaimRow } from '../../db/queries/claims';
import type { CursorBinding } from '../../lib/cursor';
import { keysetPage } from '../keyset-page';
import { validationError } from '../../lib/errors';
import { Dec, formatAmount } from '../../lib/money';
import type { ClaimListPage } from '../../contract/expenses/claim-list';
import type { ServiceContext } from '../context';
import { cachedWorkflow } from '../org-config-cache';
import { claimReader, claimTransitions, claimTransitionsOf, claimViews, type ClaimAnswer } from './read-claim';
import type { WorkflowDefinition } from '../workflow/types';
import { claimLineLoader, type ClaimLineLoader } from './claim-line-batch';

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

/**
 * The shares the caller may sign now on each claim of a batch of candidates, in the batch's order;
 * lines and shares through the page's loader (the page's views reuse them).
 */
type PageSigns = (ctx: ServiceContext, claims: ClaimRow[], def: WorkflowDefinition, loader: ClaimLineLoader) => Promise<Sign[][]>;

/** approveSigns of a batch of candidates at once (claimTransitionsOf): statements per batch, not per claim. */
const approveSignsOfPage: PageSigns = async (ctx, claims, def, loader) =>
  (await claimTransitionsOf(ctx, claims, def, loader)).map((descriptors) => descriptors.find((d) => d.action_key === 'approve')?.signs ?? []);

/** A per-claim `signsOf` over a batch, one claim after another. */
const perClaim =
  (signsOf: SignsOf): PageSigns =>
  async (ctx, claims) => {
    const out: Sign[][] = [];
    for (const claim of claims) out.push(await signsOf(ctx, claim));
    return out;
  };

/** `signsOf` is the engine's descriptor (a batch at once); tests of the paging give their own, per claim. */
export async function listClaims(ctx: ServiceContext, input: ListClaimsInput, signsOf?: SignsOf): Promise<ClaimListPage> {
  const organizationId = ctx.org.id;
  const scope = input.scope ?? 'mine';
  const limit = input.limit ?? DEFAULT_CLAIM_LIMIT;
  // The workflow once per page (from the process cache): the state filter's check and every listed claim's state.
  const def = await cachedWorkflow(ctx, 'expense_claim');
  if (input.state !== undefined) {
    if (!def.states.some((s) => s.key === input.state)) {
      throw validationError('/query/state', `is not a state of the claim workflow (${def.states.map((s) => s.key).join(', ')})`);
    }
  }
  // The cursor is bound to everything that decides which rows come in which order; not to limit.
  const binding: CursorBinding = { sort: 'expense_claims:created_at', order: 'desc', filters: { scope, state: input.state, month: input.month, q: input.q } };
  const keyset = await keysetPage(ctx, { binding, cursor: input.cursor, limit, value: CREATED_AT_PATTERN });
  const query: ClaimListQuery = {
    organizationId,
    scope,
    reader: claimReader(ctx),
    state: input.state,
    month: input.month,
    timeZone: ctx.org.timeZone,
    q: input.q,
    after: keyset.after,
    take: keyset.take,
  };

  // One read of lines and shares per claim for the page: the engine's amounts and the views alike.
  const lines = claimLineLoader(ctx);
  const found: { row: ClaimListRow; signs?: Sign[] }[] =
    scope === 'to_act'
      ? await toActRows(ctx, query, limit, def, signsOf ? perClaim(signsOf) : approveSignsOfPage, lines)
      : (await listClaimRows(ctx.db, query)).map((row) => ({ row }));
  const { page, next_cursor } = keyset.cut(found, (f) => ({ value: f.row.sortValue, id: f.row.id }));
  // The claim part of each claim's answer, for the whole page at once (claimViews).
  const views = await claimViews(ctx, page.map((f) => f.row), def, lines);
  const claims: ClaimListPage['claims'] = page.map(({ signs }, i) => {
    const claim: ClaimListPage['claims'][number] = views[i]!;
    // The view is this page's own: your_share is set on it rather than copied with it.
    if (signs) claim.your_share = yourShare(signs, ctx.org.baseCurrency);
    return claim;
  });
  return {
    claims,
    next_cursor,
  };
}

function yourShare(signs: Sign[], base: string): string {
  // One share: its amount, formatted already.
  if (signs.length === 1) return signs[0]!.amount;
  return formatAmount(
    signs.reduce((sum, s) => sum.plus(s.amount), new Dec(0)),
    base,
  );
}

/**
 * `to_act`: walks the prefiltered candidates in list order, keeping those whose approve descriptor
 * signs something, until `limit + 1` are kept or the candidates run out (each batch of candidates
 * judged at once). The next page's cursor is the last kept claim, so candidates looked at and
 * dropped after it are looked at again (and dropped again) next time, and nothing is ever answered twice.
 */
async function toActRows(ctx: ServiceContext, query: ClaimListQuery, limit: number, def: WorkflowDefinition, signsOf: PageSigns, lines: ClaimLineLoader) {
  const kept: { row: ClaimListRow; signs: Sign[] }[] = [];
  let after = query.after;
  // A batch is the page's take (at least 25, at most the longest page's 101): candidates now come from
  // the caller's own open sign-offs, so nearly every one is kept and a page takes a single batch.
  const take = Math.min(101, Math.max(query.take, 25));
  for (;;) {
    const rows = await listClaimRows(ctx.db, { ...query, after, take });
    // The whole batch's descriptors at once: a handful of statements per batch, whatever its length.
    const signed = await signsOf(ctx, rows, def, lines);
    for (const [i, row] of rows.entries()) {
      const signs = signed[i]!;
      if (signs.length > 0) kept.push({ row, signs });
      if (kept.length > limit) return kept;
    }
    const last = rows[rows.length - 1];
    if (rows.length < take || !last) return kept;
    after = { value: last.sortValue, id: last.id };
  }
}
