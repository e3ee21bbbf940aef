import { queryOptions } from '@tanstack/react-query';
import { trpc } from './trpc';

/**
 * The claimant's calls: the claim list and answer (contract 2.4), the reference data a line names
 * (categories, analytic axes and accounts, rates, tax codes) and the members (for who decided).
 */

export type ClaimAnswer = Awaited<ReturnType<typeof trpc.expenses.claims.get.query>>;
export type Claim = ClaimAnswer['claim'];
export type ClaimLine = ClaimAnswer['lines'][number];
export type ClaimDecision = ClaimAnswer['decisions'][number];
export type TransitionDescriptor = ClaimAnswer['available_transitions'][number];
export type ClaimListInput = NonNullable<Parameters<typeof trpc.expenses.claims.list.query>[0]>;
export type AddLineInput = Parameters<typeof trpc.expenses.claims.lines.add.mutate>[0];
export type UpdateLineInput = Parameters<typeof trpc.expenses.claims.lines.update.mutate>[0];

export const claimQuery = (id: string) =>
  queryOptions({
    queryKey: ['expenses.claims.get', { id }],
    queryFn: () => trpc.expenses.claims.get.query({ id }),
  });

export const claimListQuery = (input: ClaimListInput) =>
  queryOptions({
    queryKey: ['expenses.claims.list', input],
    queryFn: () => trpc.expenses.claims.list.query(input),
  });

/** Every page of a settings list (reference data is short: a few pages at most). */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next_cursor: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const p = await page(cursor);
    items.push(...p.items);
    if (!p.next_cursor) break;
    cursor = p.next_cursor;
  }
  return items;
}

const REFERENCE_STALE = 10 * 60_000;

/** What a claim line can name: active categories, axes, analytic accounts, tax codes and rates. */
export const lineReferenceQuery = queryOptions({
  queryKey: ['claims.lineReference'],
  staleTime: REFERENCE_STALE,
  queryFn: async () => {
    const s = trpc.settings;
    const [categories, axes, accounts, taxCodes, mileageRates, perDiemRates] = await Promise.all([
      allPages((cursor) => s.expenseCategories.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
      allPages((cursor) => s.analyticAxes.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
      allPages((cursor) => s.analyticAccounts.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
      allPages((cursor) => s.taxCodes.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
      allPages((cursor) => s.mileageRates.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
      allPages((cursor) => s.perDiemRates.list.query({ limit: 100, ...(cursor ? { cursor } : {}) })),
    ]);
    return { categories, axes, accounts, taxCodes, mileageRates, perDiemRates };
  },
});
export type LineReference = Awaited<ReturnType<NonNullable<typeof lineReferenceQuery.queryFn>>>;

/** The organization's members by id (names of who decided on a claim). */
export const memberNamesQuery = queryOptions({
  queryKey: ['organization.members.list', 'names'],
  staleTime: REFERENCE_STALE,
  queryFn: async () => {
    const members = await allPages((cursor) => trpc.organization.members.list.query({ limit: 100, ...(cursor ? { cursor } : {}) }));
    return new Map(members.map((m) => [m.id, m.name]));
  },
});

export interface UploadedDocument {
  id: string;
  filename: string;
  content_type: string;
  size: number;
}

/**
 * One file through POST /v1/documents (multipart, part `file`), on the session cookie: the console's
 * header says the request is the console's own. A refusal comes back as a problem (RFC 9457).
 */
export async function uploadDocument(file: Blob, filename: string, idempotencyKey: string): Promise<UploadedDocument> {
  const body = new FormData();
  body.append('file', file, filename);
  const response = await fetch('/v1/documents', {
    method: 'POST',
    body,
    credentials: 'same-origin',
    headers: { 'X-Requested-With': 'console', 'Idempotency-Key': idempotencyKey },
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new UploadProblem(response.status, answer);
  return answer as unknown as UploadedDocument;
}

export class UploadProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: Record<string, unknown>,
  ) {
    super(typeof problem.detail === 'string' ? problem.detail : `upload failed (${status})`);
  }
}

/** The draft-semantic decision that sent a claim back to its claimant: the latest decision, by someone else, into the state the claim is in now. */
export function returnedBy(answer: ClaimAnswer): ClaimDecision | undefined {
  if (answer.claim.semantic !== 'draft') return undefined;
  const latest = answer.decisions.at(-1);
  if (!latest || latest.to !== answer.claim.state || latest.actor_member_id === answer.claim.claimant_member_id) return undefined;
  return latest;
}
