/** A case-insensitive substring search term as a LIKE pattern: `%`, `_` and the escape character itself are literal. */
export function likePattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}
