/**
 * The connection guard (src/db/postgres-guard.ts) reaches postgres.js's private connections by
 * watching the pool being built. If an upgrade of postgres.js builds its pool another way, the guard
 * would hold nothing and a connection reset would end the process again: this test says so first.
 */
import { describe, expect, it } from 'vitest';
import { guardedConnections, guardedPostgres } from '../../src/db/postgres-guard';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('postgres.js connection guard', () => {
  it('holds every connection of the pool it builds, and the pool still answers', async () => {
    const sql = guardedPostgres(url!, { max: 4, onnotice: () => {} });
    try {
      expect(guardedConnections(sql)).toBe(4);
      const [row] = await sql`select 41 + 1 as answer`;
      expect(row).toEqual({ answer: 42 });
      const inTx = await sql.begin(async (tx) => (await tx`select 'in a transaction' as said`)[0]);
      expect(inTx).toEqual({ said: 'in a transaction' });
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
