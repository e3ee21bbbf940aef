import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { claims } from '../../src/db/schema';
import { bearer, createTestMember, createTestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';

const t = useTestApp();

describe.skipIf(!onPostgres)('claim references under concurrent filing (PostgreSQL)', () => {
  it('20 concurrent filings in one organization get 20 distinct consecutive references', async () => {
    const org = await createTestOrganization(t.db);
    const people = [org.owner, ...(await Promise.all(Array.from({ length: 3 }, () => createTestMember(t.db, org.id, { role: 'employee' }))))];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/expenses/claims',
          headers: { ...bearer(people[i % people.length]!.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          payload: JSON.stringify({ title: `Concurrent claim ${i}` }),
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    const year = answers[0]!.json().claim.reference.slice(3, 7);
    const refs = answers.map((a) => a.json().claim.reference as string).sort();
    expect(refs).toEqual(Array.from({ length: 20 }, (_, i) => `EC-${year}-${String(i + 1).padStart(4, '0')}`));
    const rows = await t.db.select({ reference: claims.reference }).from(claims).where(eq(claims.organizationId, org.id));
    expect(rows.map((r) => r.reference).sort()).toEqual(refs);
  });

  it('two organizations filing at once each count from 0001', async () => {
    const a = await createTestOrganization(t.db);
    const b = await createTestOrganization(t.db);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/expenses/claims',
          headers: { ...bearer((i % 2 ? a : b).owner.apiKey), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          payload: JSON.stringify({ title: `Claim ${i}` }),
        }),
      ),
    );
    for (const org of [a, b]) {
      const refs = answers.filter((x) => x.json().claim.claimant_member_id === org.owner.id).map((x) => x.json().claim.reference.slice(8)).sort();
      expect(refs).toEqual(['0001', '0002', '0003', '0004', '0005']);
    }
  });
});
