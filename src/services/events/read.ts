/**
 * Reading the organization's events: a keyset page newest first (filters `type`, `subject_id`,
 * `since`), or one by id; only the last 30 days, whether or not the purge has run.
 */
import { findEvent, listEventRows } from '../../db/queries/events';
import { KEY_VALUE_PATTERN } from '../../db/queries/keyset';
import { notFound } from '../../lib/errors';
import type { CursorBinding } from '../../lib/cursor';
import type { ServiceContext } from '../context';
import { keysetPage } from '../keyset-page';
import { eventView } from '../webhooks/payload';
import { EVENT_RETENTION_DAYS } from '../webhooks/schedule';

const kept = (now: Date) => new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);

export async function listEvents(ctx: ServiceContext, input: { type?: string[]; subject_id?: string; since?: string; limit?: number; cursor?: string }) {
  const types = input.type?.length ? [...new Set(input.type)].sort() : undefined;
  const binding: CursorBinding = { sort: 'events:occurred_at', order: 'desc', filters: { type: types?.join(','), subject_id: input.subject_id, since: input.since } };
  const keyset = await keysetPage(ctx, { binding, cursor: input.cursor, limit: input.limit ?? 25, value: KEY_VALUE_PATTERN.timestamptz });
  const rows = await listEventRows(ctx.db, {
    organizationId: ctx.org.id,
    types,
    subjectId: input.subject_id,
    since: input.since ? new Date(input.since) : undefined,
    notBefore: kept(ctx.now),
    after: keyset.after,
    take: keyset.take,
  });
  const { page, next_cursor } = keyset.cut(rows, (r) => ({ value: r.sortValue, id: r.id }));
  return { events: page.map(eventView), next_cursor };
}

export async function getEvent(ctx: ServiceContext, input: { id: string }) {
  const row = await findEvent(ctx.db, { organizationId: ctx.org.id, id: input.id, notBefore: kept(ctx.now) });
  if (!row) throw notFound('event');
  return eventView(row);
}
