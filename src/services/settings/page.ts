import type { CursorPosition } from '../../lib/cursor';
import type { ServiceContext } from '../context';
import { keysetPage as openKeyset } from '../keyset-page';

/**
 * Keyset pages of set-up lists (`{ items, next_cursor }`), through the one keyset page helper
 * (services/keyset-page.ts). The cursor is signed and bound to the list's name and filters, like the
 * receivables list's: another list's cursor, or one sent with other filters, is 422 at /cursor; a
 * forged one is 400.
 */

export interface PageInput {
  limit?: number;
  cursor?: string;
}

export const DEFAULT_PAGE_LIMIT = 50;

export function pageLimit(input: PageInput): number {
  return input.limit ?? DEFAULT_PAGE_LIMIT;
}

export interface SetupPage {
  /** The position after which the page starts, or undefined for the first page. */
  after: CursorPosition | undefined;
  /** How many rows to fetch: one more than the page, to know whether another page follows. */
  take: number;
  /** The page out of `rows` (fetched with `take`) as the list answers it, with the cursor of its last row. */
  answer<R, T>(rows: R[], positionOf: (row: R) => CursorPosition, view: (row: R) => T): { items: T[]; next_cursor: string | null };
}

/** Opens a page of the set-up list `list`: its cursor is bound to `{ sort: list, order: 'asc', filters }`. */
export async function openPage(ctx: ServiceContext, list: string, input: PageInput, filters: Record<string, unknown>): Promise<SetupPage> {
  const page = await openKeyset(ctx, { binding: { sort: list, order: 'asc', filters }, cursor: input.cursor, limit: pageLimit(input) });
  return {
    after: page.after,
    take: page.take,
    answer(rows, positionOf, view) {
      const { page: items, next_cursor } = page.cut(rows, positionOf);
      return { items: items.map(view), next_cursor };
    },
  };
}

/**
 * One page of a set-up list ordered by (key, id): decodes the cursor (bound to the list and its
 * filters), fetches limit + 1 rows after it and answers `{ items, next_cursor }`.
 */
export async function keysetPage<R extends { id: string }, T>(
  ctx: ServiceContext,
  list: string,
  input: PageInput,
  filters: Record<string, unknown>,
  fetch: (after: { value: string; id: string } | undefined, limit: number) => Promise<R[]>,
  keyOf: (row: R) => string,
  view: (row: R) => T,
): Promise<{ items: T[]; next_cursor: string | null }> {
  const page = await openPage(ctx, list, input, filters);
  const after = page.after ? { value: page.after.value ?? '', id: page.after.id } : undefined;
  return page.answer(await fetch(after, page.take), (r) => ({ value: keyOf(r), id: r.id }), view);
}
