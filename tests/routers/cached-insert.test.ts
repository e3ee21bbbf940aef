/**
 * cachedInsertReturning (src/db/client.ts): drizzle's insert text built once per shape of the rows
 * and reused with the values as placeholders. It must write and answer exactly what drizzle's
 * builder writes and answers, call after call, whatever the values.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cachedInsertReturning } from '../../src/db/client';
import { customers } from '../../src/db/schema';
import { createTestOrganization, type TestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();
let org: TestOrganization;
const insertCustomers = cachedInsertReturning(customers);

beforeAll(async () => {
  org = await createTestOrganization(t.db);
});

type Row = typeof customers.$inferInsert;

function row(i: number, over: Partial<Row> = {}): Row {
  return {
    organizationId: org.id,
    id: randomUUID(),
    code: `CI-${i}-${randomUUID().slice(0, 8)}`,
    legalName: `Cached Insert ${i} Sdn Bhd`,
    partyKind: 'organization',
    address: { line1: `${i} Jalan Ampang`, city: 'Kuala Lumpur', state: '14', postcode: '50450' },
    currency: 'MYR',
    customFields: { po: `PO-${i}`, note: 'a "quoted" value, with commas' },
    email: `c${i}@example.test`,
    createdAt: new Date(Date.UTC(2026, 10, 27, 1, i, 30, 123)),
    ...over,
  };
}

/** A stored row without the columns that differ by construction (the database's now() when left to its default). */
const comparable = (r: typeof customers.$inferSelect, defaultedNow = false) => ({ ...r, id: undefined, code: undefined, ...(defaultedNow ? { createdAt: undefined } : {}) });

async function stored(ids: string[]) {
  const rows = await t.db.select().from(customers).where(and(eq(customers.organizationId, org.id), inArray(customers.id, ids)));
  return ids.map((id) => rows.find((r) => r.id === id)!);
}

describe('cachedInsertReturning', () => {
  it('writes and answers what the builder writes and answers: values, nulls, defaults, jsonb and timestamps', async () => {
    const shapes: Partial<Row>[] = [
      {},
      { email: null, phone: null, tin: 'C1234567890' },
      { address: undefined, customFields: undefined, createdAt: undefined, email: undefined },
      { paymentTermsDays: 0, isActive: false, countryCode: 'SG', registrationType: 'brn', registrationNo: '202301000001' },
    ];
    for (const [n, over] of shapes.entries()) {
      // The same shape three times with other values: nothing of an earlier call is kept but the text.
      for (let k = 0; k < 3; k++) {
        const i = n * 10 + k;
        const viaCache = row(i, over);
        const viaBuilder = { ...row(i, over), code: `${viaCache.code}-b` };
        const [answered] = await insertCustomers(t.db, [viaCache]);
        const [expected] = await t.db.insert(customers).values(viaBuilder).returning();
        const defaultedNow = 'createdAt' in over && over.createdAt === undefined;
        expect(comparable(answered!, defaultedNow)).toEqual(comparable(expected!, defaultedNow));
        expect(answered!.id).toBe(viaCache.id);
        expect(answered!.code).toBe(viaCache.code);
        const [a, b] = await stored([viaCache.id!, viaBuilder.id!]);
        expect(comparable(a!, defaultedNow)).toEqual(comparable(b!, defaultedNow));
        if (defaultedNow) continue;
        expect(a!.createdAt.toISOString()).toBe(viaCache.createdAt!.toISOString());
        expect(a!.customFields).toEqual(viaCache.customFields);
      }
    }
  });

  it('several rows in one statement, in order, with shapes that differ from row to row', async () => {
    const rows = [row(101), row(102, { email: null }), row(103, { address: undefined }), row(104)];
    const answered = await insertCustomers(t.db, rows);
    expect(answered.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(answered.map((r) => r.email)).toEqual(['c101@example.test', null, 'c103@example.test', 'c104@example.test']);
    expect(answered[2]!.address).toEqual({});
    const again = [row(105), row(106, { email: null }), row(107, { address: undefined }), row(108)];
    const second = await insertCustomers(t.db, again);
    expect(second.map((r) => r.legalName)).toEqual(again.map((r) => r.legalName));
    expect((await stored(again.map((r) => r.id!))).map((r) => r.code)).toEqual(again.map((r) => r.code));
  });

  it('no rows: no statement, no answer', async () => {
    expect(await insertCustomers(t.db, [])).toEqual([]);
  });
});
