/**
 * Webhook deliveries from real server processes sharing one PostgreSQL: two processes working one
 * backlog send each attempt once (the delivery jobs are claimed with FOR UPDATE SKIP LOCKED and each
 * attempt's record is fenced by its number); a process killed with SIGKILL while a request is in
 * flight loses nothing: once its lease runs out the attempt is made again and the event delivered.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { webhookAttempts, webhookDeliveries } from '../../src/db/schema';
import { JobRunner } from '../../src/jobs/runner';
import { buildJobRegistry } from '../../src/jobs/standard-jobs';
import { appendEvent } from '../../src/services/events/append';
import { createTestOrganization } from '../factories/organization';
import { onPostgres, TEST_OUTBOUND_NETWORKS, testDatabaseEnv, useTestApp } from '../helpers/app';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { receiver } from '../helpers/webhooks';

const env = () => ({
  ...testDatabaseEnv(),
  OUTBOUND_ALLOWED_NETWORKS: TEST_OUTBOUND_NETWORKS,
  JOB_POLL_INTERVAL_MS: '100',
  JOB_BATCH_SIZE: '3',
  JOB_LEASE_SECONDS: '10',
  DATABASE_POOL_SIZE: '5',
});

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!onPostgres)('webhook delivery across processes', () => {
  const t = useTestApp();
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  /** An organization with an endpoint at `url` for customer events, and `n` events appended in one transaction. */
  async function backlog(url: string, n: number) {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: { authorization: `Bearer ${org.owner.session}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ url, types: ['receivables.customer.created'] }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const endpointId = res.json().id as string;
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < n; i++) {
        await appendEvent(tx, {
          organizationId: org.id,
          type: 'receivables.customer.created',
          occurredAt: new Date(),
          actorMemberId: org.owner.id,
          subject: { type: 'customer', id: randomUUID(), revision: 1 },
          data: { code: `C${i}` },
        });
      }
    });
    return endpointId;
  }

  const deliveriesOf = (endpointId: string) => t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

  it('two processes deliver one backlog, each attempt sent once', async () => {
    const rx = await receiver((_r, _n, res) => void setTimeout(() => res.writeHead(200).end('ok'), 30));
    try {
      servers.push(await startServerProcess(env()));
      servers.push(await startServerProcess(env()));
      const endpointId = await backlog(rx.url, 40);
      await until(async () => (await deliveriesOf(endpointId)).every((d) => d.state === 'delivered'), 90_000);
      const deliveries = await deliveriesOf(endpointId);
      expect(deliveries).toHaveLength(40);
      expect(rx.received).toHaveLength(40);
      expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(40);
      const attempts = await t.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveries.map((d) => d.id)));
      expect(attempts).toHaveLength(40);
      expect(attempts.every((a) => a.number === 1 && a.status === 200)).toBe(true);
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.stop()));
      await rx.close();
    }
  }, 180_000);

  it('a process killed mid-delivery leaves the attempt to be made again', async () => {
    let victim: ServerProcess | undefined;
    const rx = await receiver((_r, n, res) => {
      // The first request arrives: its sender dies before any answer.
      if (n === 1) victim?.child.kill('SIGKILL');
      else res.writeHead(200).end('ok');
    });
    try {
      victim = await startServerProcess(env());
      servers.push(victim);
      const endpointId = await backlog(rx.url, 1);
      await until(async () => rx.received.length === 1 && victim!.child.signalCode === 'SIGKILL', 30_000);
      const [inFlight] = await deliveriesOf(endpointId);
      expect(inFlight).toMatchObject({ state: 'pending', attempts: 0 });

      // Another process's runner, once the dead one's lease (10 s) has run out, and after the retry's backoff.
      const runner = new JobRunner({ db: t.db, registry: buildJobRegistry(t.deps.config), random: () => 0, batchSize: 50 });
      await runner.runOnce(new Date(Date.now() + 20_000));
      // Batches until this delivery's turn: on a database shared with other files, their due jobs
      // (other endpoints' retries, mail) fill batches too.
      for (let batch = 0; batch < 40 && (await deliveriesOf(endpointId))[0]?.state === 'pending'; batch++) await runner.runOnce(new Date(Date.now() + 120_000));
      const [done] = await deliveriesOf(endpointId);
      expect(done).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200 });
      expect(rx.received).toHaveLength(2);
      expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id']);
    } finally {
      await Promise.all(servers.splice(0).map((s) => s.stop()));
      await rx.close();
    }
  }, 120_000);
});
