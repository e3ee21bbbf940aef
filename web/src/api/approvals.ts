import { queryOptions } from '@tanstack/react-query';
import { trpc } from './trpc';

/**
 * The reads of the approver's inbox, the payment queue and Me: claims (list and one), the
 * organization's members by id (for names), a claim's payout channels for the payer, the person's
 * own payout channels and delegations. Query keys are the procedure path and its input.
 */
export type ClaimAnswer = Awaited<ReturnType<typeof trpc.expenses.claims.get.query>>;
export type ClaimListItem = Awaited<ReturnType<typeof trpc.expenses.claims.list.query>>['claims'][number];
export type Descriptor = ClaimAnswer['available_transitions'][number];
export type ClaimListInput = Parameters<typeof trpc.expenses.claims.list.query>[0];

export const claimListQuery = (input: NonNullable<ClaimListInput>) =>
  queryOptions({ queryKey: ['expenses.claims.list', input], queryFn: () => trpc.expenses.claims.list.query(input), staleTime: 10_000 });

export const claimQuery = (id: string) =>
  queryOptions({ queryKey: ['expenses.claims.get', { id }], queryFn: () => trpc.expenses.claims.get.query({ id }), staleTime: 5_000 });

/** Every member's name by id (the organization's directory; empty for a person who may not read it). */
export const memberNamesQuery = queryOptions({
  queryKey: ['organization.members.list', 'names'],
  queryFn: async () => {
    const names = new Map<string, string>();
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const answer = await trpc.organization.members.list.query({ limit: 100, ...(cursor ? { cursor } : {}) });
      for (const m of answer.items) names.set(m.id, m.name);
      if (!answer.next_cursor) break;
      cursor = answer.next_cursor;
    }
    return names;
  },
  staleTime: 5 * 60_000,
  retry: false,
});

export const claimPayoutChannelsQuery = (id: string) =>
  queryOptions({ queryKey: ['expenses.claims.payoutChannels', { id }], queryFn: () => trpc.expenses.claims.payoutChannels.query({ id }) });

export type PayoutChannel = Awaited<ReturnType<typeof trpc.me.payoutChannels.list.query>>['items'][number];

export const myPayoutChannelsQuery = queryOptions({
  queryKey: ['me.payoutChannels.list'],
  queryFn: () => trpc.me.payoutChannels.list.query({ limit: 100 }),
});

export type Delegation = Awaited<ReturnType<typeof trpc.me.delegations.list.query>>['items'][number];

export const myDelegationsQuery = queryOptions({
  queryKey: ['me.delegations.list'],
  queryFn: () => trpc.me.delegations.list.query({ limit: 100 }),
});

/** The descriptor's label in the person's language, else English. */
export function labelOf(labels: Record<string, string | undefined>, language: string): string {
  return labels[language] ?? labels.en ?? '';
}

/**
 * Uploads a file as the person (POST /v1/documents with the session cookie and the console's
 * header); answers the document's id. A refusal is thrown as the server's problem.
 */
export async function uploadDocument(file: File): Promise<{ id: string }> {
  const body = new FormData();
  body.append('file', file, file.name);
  const res = await fetch('/v1/documents', { method: 'POST', body, credentials: 'same-origin', headers: { 'X-Requested-With': 'console', 'Idempotency-Key': crypto.randomUUID() } });
  const answer = (await res.json().catch(() => ({}))) as { id?: string; detail?: string; title?: string; status?: number };
  if (!res.ok || !answer.id) throw new UploadError(res.status, answer.detail ?? answer.title ?? `HTTP ${res.status}`);
  return { id: answer.id };
}

export class UploadError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
  }
}

/** A document's content as this origin serves it (the session cookie authenticates a GET). */
export const documentContentUrl = (id: string) => `/v1/documents/${id}/content`;
