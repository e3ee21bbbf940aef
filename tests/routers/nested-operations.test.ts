import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import type { Database } from '../../src/db/client';
import type { AppDeps } from '../../src/deps';
import { useTestApp } from '../helpers/app';
import { expectRefused, refusal } from '../helpers/settings';
import { createTestOrganization } from '../factories/organization';

/**
 * Operations called in-process inside an outer transaction, as the demo seeds (src/demo/seed-demo.ts):
 * each write's own transaction is a savepoint of the outer one, with its idempotency, refusals and
 * rate limits working as on their own; the outer rollback takes everything with it.
 */

const t = useTestApp();

describe('operations nested in an outer transaction', () => {
  it('replay an idempotent write, roll back only a refused one, count API-key limits; the outer rollback leaves nothing', async () => {
    const org = await createTestOrganization(t.db);
    const rollback = new Error('roll the outer transaction back');
    let createdId = '';
    await t.db
      .transaction(async (tx) => {
        const deps: AppDeps = { ...t.deps, db: tx as unknown as Database };
        const asOwner = (idempotencyKey?: string) => createInProcessClient(deps, { token: org.owner.session, idempotencyKey });

        const first = await asOwner('nested-key-1').receivables.customers.create({ code: 'N-1', legal_name: 'Nested Sdn Bhd' });
        const replayed = await asOwner('nested-key-1').receivables.customers.create({ code: 'N-1', legal_name: 'Nested Sdn Bhd' });
        expect(replayed.id).toBe(first.id);
        createdId = first.id;
        expectRefused(await refusal(asOwner('nested-key-1').receivables.customers.create({ code: 'N-2', legal_name: 'Another' })), 409, 'idempotency_key_reused');

        // A refusal rolls back its own savepoint; the outer transaction goes on.
        expectRefused(await refusal(asOwner().receivables.customers.create({ code: 'N-1', legal_name: 'Taken code' })), 409, 'conflict', '/code');
        const second = await asOwner().receivables.customers.create({ code: 'N-2', legal_name: 'Second Sdn Bhd' });

        // An API key's request is counted against its limits (in memory, or the pool's table on PostgreSQL) and answers.
        const viaKey = createInProcessClient(deps, { token: org.owner.apiKey, idempotencyKey: 'nested-key-2' });
        await viaKey.receivables.customers.create({ code: 'N-3', legal_name: 'By key Sdn Bhd' });
        const listed = await createInProcessClient(deps, { token: org.owner.apiKey }).receivables.customers.list({ limit: 10 });
        expect(listed.customers.map((c) => c.code)).toEqual(['N-1', 'N-2', 'N-3']);
        expect(second.code).toBe('N-2');
        throw rollback;
      })
      .catch((e) => {
        if (e !== rollback) throw e;
      });

    const after = await createInProcessClient(t.deps, { token: org.owner.session }).receivables.customers.list({ limit: 10 });
    expect(after.customers).toEqual([]);
    expectRefused(await refusal(createInProcessClient(t.deps, { token: org.owner.session }).receivables.customers.get({ id: createdId })), 404, 'not_found');
  });
});
