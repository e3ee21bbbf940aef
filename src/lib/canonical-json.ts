/**
 * JSON with object keys sorted at every depth: the same value always gives the same text. Members
 * whose value is undefined are dropped, an undefined array element is `null` (as JSON.stringify
 * does), arrays keep their order.
 *
 * Stored data depends on this text, so it must not change: idempotency fingerprints
 * (services/idempotency) and the query binding inside list cursors (lib/cursor) hash it. The pinned
 * vectors in tests/unit/canonical-json.test.ts fail if it does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
