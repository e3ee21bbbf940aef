import { decodeCursor, encodeCursor, invalidCursor, type CursorBinding, type CursorPosition } from '../lib/cursor';
import type { ServiceContext } from './context';

/**
 * The service side of every keyset list (receivables documents, customers, receipts, claims, and the
 * set-up lists): the cursor opened and checked once, `limit + 1` rows asked for, the page cut and the
 * next cursor signed. The SQL side is db/queries/keyset.ts.
 *
 * A cursor is bound to the list, its sort, order and filters (not to the page size): one sent with
 * anything else is 422 `validation` at /query/cursor; one that does not decode or verify, or carries a
 * position no query of this list could have answered, is 400.
 */

export interface KeysetPageSpec {
  /** The list's name in `sort` ('customers:code'), its order and every filter deciding which rows come in which order. */
  binding: CursorBinding;
  cursor?: string;
  limit: number;
  /** What the position's value must look like (db/queries/keyset.ts's KEY_VALUE_PATTERN); omitted: any value, null included. */
  value?: RegExp;
}

export interface KeysetPage<After> {
  /** Where the page starts (after this row), or undefined for the first page. */
  after: After | undefined;
  /** How many rows to ask the query for: one more than the page, to know whether another page follows. */
  take: number;
  /** The page out of `rows` (fetched with `take`), and the signed cursor of its last row when more follow. */
  cut<R>(rows: R[], position: (row: R) => CursorPosition): { page: R[]; next_cursor: string | null };
}

const ID = /^[0-9a-f-]{36}$/i;

export async function keysetPage(ctx: ServiceContext, spec: KeysetPageSpec & { value: RegExp }): Promise<KeysetPage<{ value: string; id: string }>>;
export async function keysetPage(ctx: ServiceContext, spec: KeysetPageSpec): Promise<KeysetPage<CursorPosition>>;
export async function keysetPage(ctx: ServiceContext, spec: KeysetPageSpec): Promise<KeysetPage<CursorPosition>> {
  const secret = await ctx.cursorSecret();
  let after: CursorPosition | undefined;
  if (spec.cursor !== undefined) {
    after = decodeCursor(secret, spec.cursor, spec.binding);
    const valueOk = spec.value ? after.value !== null && spec.value.test(after.value) : true;
    if (!valueOk || !ID.test(after.id)) throw invalidCursor();
  }
  return {
    after,
    take: spec.limit + 1,
    cut(rows, position) {
      const page = rows.slice(0, spec.limit);
      const last = page[page.length - 1];
      return { page, next_cursor: rows.length > spec.limit && last ? encodeCursor(secret, spec.binding, position(last)) : null };
    },
  };
}
