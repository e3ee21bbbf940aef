/**
 * withCompiledRowMapping (src/db/client.ts): a prepared select's rows mapped by a function written
 * once for its columns. It must answer exactly what drizzle's own mapping answers: every column's
 * decoder (timestamps as Dates, jsonb parsed, numerics as text), expressions' decoders, nested
 * selections, and a left-joined table's object null when the join found no row.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm';
import { executePrepared, preparedSelect, preparedSql, sharingPlaceholders, withCompiledRowMapping } from '../../src/db/client';
import { analyticAccounts, customers } from '../../src/db/schema';
import { decodeJsonRows, jsonRows } from '../../src/db/queries/json-rows';
import { queryRows } from '../../src/db/client';
import { createTestCustomer } from '../factories/customer';
import { createTestOrganization, type TestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';

const t = useTestApp();
let org: TestOrganization;

beforeAll(async () => {
  org = await createTestOrganization(t.db);
  for (let i = 0; i < 3; i++) await createTestCustomer(t.db, org.id, { legalName: `Mapping ${i} ${randomUUID().slice(0, 6)} Sdn Bhd` });
});

function query() {
  return t.db
    .select({
      customer: customers,
      // A left-joined table that finds no row: its object is null.
      project: analyticAccounts,
      nested: { code: customers.code, doubled: sql<number>`2 * 21`.mapWith(Number) },
      createdText: sql<string>`${customers.createdAt}::text`,
      flag: sql<boolean>`${customers.legalName} like 'Mapping 1%'`,
      nothing: sql<string | null>`null::text`,
    })
    .from(customers)
    .leftJoin(analyticAccounts, and(eq(analyticAccounts.organizationId, customers.organizationId), eq(analyticAccounts.id, customers.id)))
    .where(eq(customers.organizationId, sql.placeholder('organizationId')))
    .orderBy(customers.code);
}

describe('withCompiledRowMapping', () => {
  it("answers exactly drizzle's own mapping, call after call", async () => {
    const plain = query().prepare('mapping_plain');
    const compiled = withCompiledRowMapping(query().prepare('mapping_compiled'));
    for (let call = 0; call < 3; call++) {
      const expected = await plain.execute({ organizationId: org.id });
      const actual = await compiled.execute({ organizationId: org.id });
      expect(expected.length).toBeGreaterThanOrEqual(3);
      expect(actual).toEqual(expected);
      expect(actual[0]!.project).toBeNull();
      expect(actual[0]!.customer.createdAt).toBeInstanceOf(Date);
      expect(actual[0]!.nested.doubled).toBe(42);
      expect(actual[0]!.nothing).toBeNull();
      expect(actual.filter((r) => r.flag === true)).toHaveLength(1);
    }
  });

  it("executePrepared answers what drizzle's execute answers, and fails as it fails (DrizzleQueryError with the driver's error)", async () => {
    const compiled = withCompiledRowMapping(query().prepare('mapping_executed'));
    expect(await executePrepared(t.db, compiled, { organizationId: org.id })).toEqual(await compiled.execute({ organizationId: org.id }));
    expect(await executePrepared(t.db, compiled, { organizationId: randomUUID() })).toEqual([]);
    const viaDrizzle = await compiled.execute({ organizationId: 'not-a-uuid' }).catch((e: unknown) => e);
    const direct = await executePrepared(t.db, compiled, { organizationId: 'not-a-uuid' }).catch((e: unknown) => e);
    expect(viaDrizzle).toBeInstanceOf(DrizzleQueryError);
    expect(direct).toBeInstanceOf(DrizzleQueryError);
    expect((direct as DrizzleQueryError).message).toBe((viaDrizzle as DrizzleQueryError).message);
    expect(((direct as DrizzleQueryError).cause as { code?: string }).code).toBe('22P02');
    expect(((viaDrizzle as DrizzleQueryError).cause as { code?: string }).code).toBe('22P02');
  });

  it("a prepared select built once serves the pool and every transaction, each on its own connection", async () => {
    const byCode = preparedSelect('mapping_by_code', (db) =>
      db.select({ id: customers.id, backend: sql<number>`pg_backend_pid()` }).from(customers).where(and(eq(customers.organizationId, sql.placeholder('organizationId')), eq(customers.code, sql.placeholder('code')))),
    );
    const code = `TX-${randomUUID().slice(0, 8)}`;
    // First used inside a transaction: it sees the transaction's own uncommitted row.
    await t.db
      .transaction(async (tx) => {
        const [made] = await createTestCustomerIn(tx, code);
        const seen = await byCode(tx, { organizationId: org.id, code });
        expect(seen.map((r) => r.id)).toEqual([made!.id]);
        // Outside the transaction (the pool, another connection) the row is not there yet. The embedded
        // database has one connection, which the transaction holds.
        if (onPostgres) {
          const outside = await byCode(t.db, { organizationId: org.id, code: made!.code });
          expect(outside).toEqual([]);
          expect((await byCode(tx, { organizationId: org.id, code }))[0]!.backend).not.toBe((await t.db.execute(sql`select pg_backend_pid() as pid`) as unknown as { pid: number }[])[0]!.pid);
        }
        throw new Error('roll back');
      })
      .catch((e: unknown) => expect((e as Error).message).toBe('roll back'));
    expect(await byCode(t.db, { organizationId: org.id, code })).toEqual([]);
  });

  it('preparedSql sends its statement with the values and answers rows as objects; a failure is a DrizzleQueryError', async () => {
    const count = preparedSql<{ n: number; code: string }>(() => sql`select count(*)::int as n, min(code) as code from customers where organization_id = ${sql.placeholder('organizationId')}`);
    expect(await count(t.db, { organizationId: org.id })).toEqual([{ n: 3, code: expect.any(String) }]);
    expect(await count(t.db, { organizationId: randomUUID() })).toEqual([{ n: 0, code: null }]);
    const failed = await count(t.db, { organizationId: 'not-a-uuid' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(DrizzleQueryError);
    expect(((failed as DrizzleQueryError).cause as { code?: string }).code).toBe('22P02');
  });

  it('preparedSql sends a placeholder named several times as one parameter; a literal $n in the text leaves drizzle\'s numbering', async () => {
    const p = (name: string) => sql.placeholder(name);
    const built = (t.db as unknown as { dialect: { sqlToQuery(q: unknown): { sql: string; params: unknown[] } } }).dialect.sqlToQuery(
      sql`select ${p('a')}::int + ${p('b')}::int + ${p('a')}::int as n, ${p('b')}::int * 10 as m`,
    );
    const shared = sharingPlaceholders(built);
    expect(shared.sql).toBe('select $1::int + $2::int + $1::int as n, $2::int * 10 as m');
    expect(shared.params.map((x) => (x as { name: string }).name)).toEqual(['a', 'b']);
    const literal = (t.db as unknown as { dialect: { sqlToQuery(q: unknown): { sql: string; params: unknown[] } } }).dialect.sqlToQuery(sql`select '$9' as s, ${p('a')}::int + ${p('a')}::int as n`);
    expect(sharingPlaceholders(literal)).toBe(literal);
    // Run on the database: each name's value in each of its places.
    const sum = preparedSql<{ n: number; m: number }>(() => sql`select ${p('a')}::int + ${p('b')}::int + ${p('a')}::int as n, ${p('b')}::int * 10 as m`);
    expect(await sum(t.db, { a: 2, b: 5 })).toEqual([{ n: 9, m: 50 }]);
    expect(await sum(t.db, { a: 7, b: 1 })).toEqual([{ n: 15, m: 10 }]);
    await expect(sum(t.db, { a: 1 })).rejects.toThrow('No value for placeholder "b" was provided');
  });

  it("decodeJsonRows answers a table's rows sent as one JSON column exactly as a select of the table answers them", async () => {
    const where = eq(customers.organizationId, org.id);
    const [row] = await queryRows<{ rows: unknown }>(t.db, sql`select ${jsonRows(customers, where, ['code'])} as rows`);
    const decoded = decodeJsonRows(customers, row!.rows);
    const selected = await t.db.select().from(customers).where(where).orderBy(customers.code);
    expect(decoded.length).toBeGreaterThanOrEqual(3);
    expect(decoded).toEqual(selected);
    expect(decoded[0]!.createdAt).toBeInstanceOf(Date);
    expect(Object.keys(decoded[0]!)).toEqual(Object.keys(selected[0]!));
    expect(decodeJsonRows(customers, '[]')).toEqual([]);
  });
});

/** A customer row written with `db` (a transaction here), its code given. */
function createTestCustomerIn(db: typeof t.db, code: string) {
  return db.insert(customers).values({ organizationId: org.id, code, legalName: `Tx ${code} Sdn Bhd`, partyKind: 'organization', countryCode: 'MY', currency: 'MYR' } as never).returning({ id: customers.id, code: customers.code });
}
