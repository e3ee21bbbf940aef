/**
 * withCompiledRowMapping (src/db/client.ts): a prepared select's rows mapped by a function written
 * once for its columns. It must answer exactly what drizzle's own mapping answers: every column's
 * decoder (timestamps as Dates, jsonb parsed, numerics as text), expressions' decoders, nested
 * selections, and a left-joined table's object null when the join found no row.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { withCompiledRowMapping } from '../../src/db/client';
import { analyticAccounts, customers } from '../../src/db/schema';
import { createTestCustomer } from '../factories/customer';
import { createTestOrganization, type TestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

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
});
