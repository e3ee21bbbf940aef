import { decodeCursor, encodeCursor, type CursorPosition } from '../../lib/cursor';
import type { ServiceContext } from '../context';

/**
 * Keyset pages of set-up lists (`{ items, next_cursor }`, DESIGN section 15). The cursor is signed and
 * bound to the list's name and filters, like the receivables list's: another list's cursor, or one
 * sent with other filters, is 422 at /cursor; a forged one is 400.
 */

export interface PageInput {
  limit?: number;
  cursor?: string;
}

export const DEFAULT_PAGE_LIMIT = 50;

/** The position after which the page starts, or undefined for the first page. */
export async function decodePage(ctx: ServiceContext, list: string, input: PageInput, filters: Record<string, unknown>): Promise<CursorPosition | undefined> {
  if (!input.cursor) return undefined;
  return decodeCursor(await ctx.cursorSecret(), input.cursor, { sort: list, order: 'asc', filters });
}

/**
 * Cuts `rows` (fetched with limit + 1) to one page and signs the cursor of its last row.
 */
export async function pageOf<R, T>(
  ctx: ServiceContext,
  list: string,
  filters: Record<string, unknown>,
  rows: R[],
  limit: number,
  positionOf: (row: R) => CursorPosition,
  view: (row: R) => T,
): Promise<{ items: T[]; next_cursor: string | null }> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next_cursor = rows.length > limit && last ? encodeCursor(await ctx.cursorSecret(), { sort: list, order: 'asc', filters }, positionOf(last)) : null;
  return { items: page.map(view), next_cursor };
}
