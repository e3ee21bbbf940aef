import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryRows, sql, type Database } from '../../src/db/client';
import type { Principal } from '../../src/services/access/principal';
import { idempotencyScope, requestFingerprint, storeAnswer } from '../../src/services/idempotency/idempotency';
import { runWrite, type WriteAnswer } from '../../src/services/idempotency/write-transaction';
import { createTestOrganization } from '../factories/organization';
import { onPostgres, useTestApp } from '../helpers/app';

/**
 * The key's lock and its look-up are one statement (issue 13), whose snapshot predates the lock: a
 * request can get the lock just after another committed its answer and not see it. Then storing its
 * own answer finds the live row, everything it wrote rolls back, and it runs once more, which
 * replays the first answer. PostgreSQL only: the other request commits on another connection while
 * this one's transaction is open.
 */
describe.skipIf(!onPostgres)('an answer stored by another request while this one ran', () => {
  const t = useTestApp();

  it('rolls this write back and replays the answer stored first; the key keeps that answer', async () => {
    const org = await createTestOrganization(t.db);
    const principal: Principal = { organizationId: org.id, memberId: org.owner.id, via: 'api_key', credentialId: org.owner.apiKeyId, permissions: new Set() };
    const req = { principal, idempotencyKey: `race-${randomUUID()}`, method: 'POST', route: 'test.race', input: { amount: '10.00' } };
    const ref = { organizationId: org.id, scope: idempotencyScope(principal), key: req.idempotencyKey };
    const marker = `race-marker:${randomUUID()}`;
    let runs = 0;

    type R = { answer: WriteAnswer; replayed: boolean };
    const result = await runWrite<R>({ db: t.db, now: () => new Date() }, req, {
      async run(tx: Database) {
        runs++;
        // Something this write does, in its transaction...
        await queryRows(tx, sql`insert into rate_limit_counters (key, points, expire) values (${marker}, 1, now() + interval '1 hour')`);
        // ...while the "other" request, on another connection, commits its answer under the same key.
        await storeAnswer(t.db, ref, { fingerprint: requestFingerprint(req), route: req.route, status: 201, body: { from: 'first' }, etag: '"1"' }, new Date());
        return { answer: { status: 201, body: { from: 'second' }, etag: '"1"' }, replayed: false };
      },
      answerOf: (r) => (r.replayed ? undefined : r.answer),
      replay: (stored) => ({ answer: stored, replayed: true }),
    });

    expect(runs).toBe(1);
    expect(result.replayed).toBe(true);
    expect(result.answer.body).toEqual({ from: 'first' });
    expect(await queryRows(t.db, sql`select 1 from rate_limit_counters where key = ${marker}`)).toHaveLength(0);
    const [stored] = await queryRows<{ body: string }>(t.db, sql`select body from idempotency_keys where organization_id = ${org.id} and key = ${req.idempotencyKey}`);
    expect(JSON.parse(stored!.body)).toEqual({ from: 'first' });
  });
});
