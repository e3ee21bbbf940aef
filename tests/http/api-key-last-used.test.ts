import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/db/schema';
import { createTestCustomer } from '../factories/customer';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

/**
 * An API key's `last_used_at` is recorded at most once a minute (issue 13): the first request of a
 * minute writes it, the others write nothing, and the answer is the same either way.
 */
const t = useTestApp();

describe('last_used_at', () => {
  it('is written by the first use, then not again until a minute has passed', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const keyId = /^fk_([0-9a-f-]{36})_/.exec(org.owner.apiKey)![1]!;
    const lastUsed = async () => (await t.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)))[0]!.at?.toISOString() ?? null;
    const read = async (at: string) => {
      t.setNow(new Date(at));
      const res = await t.app.inject({ method: 'GET', url: `/v1/receivables/customers/${customer.id}`, headers: { authorization: `Bearer ${org.owner.apiKey}` } });
      expect(res.statusCode, res.body).toBe(200);
    };
    try {
      await read('2030-01-01T00:00:00.000Z');
      expect(await lastUsed()).toBe('2030-01-01T00:00:00.000Z');
      await read('2030-01-01T00:00:59.000Z');
      expect(await lastUsed()).toBe('2030-01-01T00:00:00.000Z');
      await read('2030-01-01T00:01:00.000Z');
      expect(await lastUsed()).toBe('2030-01-01T00:01:00.000Z');
    } finally {
      t.setNow(undefined);
    }
  });
});
