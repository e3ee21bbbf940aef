/**
 * The connection guard (src/db/postgres-guard.ts) reaches postgres.js's private connections by
 * watching the pool being built. If an upgrade of postgres.js builds its pool another way, the guard
 * would hold nothing and a connection reset would end the process again: this test says so first.
 */
import { randomUUID } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { guardedConnections, guardedPostgres } from '../../src/db/postgres-guard';

// The driver's own connections to PostgreSQL, whose backends the test terminates: never through a
// pooler (which would keep the client's connection open when a server connection behind it ends).
const url = process.env.TEST_DATABASE_DIRECT_URL ?? process.env.TEST_DATABASE_URL;

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

  it('a transaction begun on a connection the pool reconnects runs, and the pool keeps answering', async () => {
    // The order that left every connection reserved inside a transaction: a transaction on an open
    // connection, its backend terminated, then a transaction whose `begin` reconnects the slot (the
    // connection runs that `begin` itself, as its first statement after connecting).
    const name = `guard-${randomUUID().slice(0, 8)}`;
    const appUrl = new URL(url!);
    appUrl.searchParams.set('application_name', name);
    const sql = guardedPostgres(appUrl.toString(), { max: 1, onnotice: () => {} });
    const admin = postgres(url!, { max: 1, onnotice: () => {} });
    const within = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 10 s')), 10_000))]);
    try {
      await sql`select 1`;
      expect(await sql.begin(async (tx) => (await tx`select 'first' as said`)[0])).toEqual({ said: 'first' });
      const ended = await admin`select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = ${name}`;
      expect(ended).toHaveLength(1);
      // The pool learns of the close when its socket ends (or its next statement fails): wait for it.
      for (let i = 0; i < 50; i++) {
        const [row] = await admin`select count(*)::int as n from pg_stat_activity where application_name = ${name}`;
        if (row!.n === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 200));
      const second = await within(sql.begin(async (tx) => (await tx`select 'second' as said`)[0]));
      expect(second).toEqual({ said: 'second' });
      const [after] = await within(sql`select 'after' as said`);
      expect(after).toEqual({ said: 'after' });
    } finally {
      await admin.end({ timeout: 5 });
      await sql.end({ timeout: 1 }).catch(() => undefined);
    }
  }, 60_000);

  it('a statement sent between a socket error and its close is refused: the reconnected session answers every statement with its own answer', async () => {
    // A proxy in front of PostgreSQL that resets the service's connections on demand (an RST: the
    // service's socket fails with ECONNRESET at once and closes a moment later).
    const target = new URL(url!);
    const clients = new Set<Socket>();
    const proxy = createServer((client) => {
      const server = connect(Number(target.port || 5432), target.hostname);
      clients.add(client);
      const end = () => {
        clients.delete(client);
        client.destroy();
        server.destroy();
      };
      for (const s of [client, server]) s.on('error', end).on('close', end);
      client.pipe(server).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const viaProxy = new URL(url!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String((proxy.address() as AddressInfo).port);
    const sql = guardedPostgres(viaProxy.toString(), { max: 1, onnotice: () => {}, backoff: () => 0.05 });
    const within = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5_000))]);
    try {
      expect(await sql`select 'before' as said`).toEqual([{ said: 'before' }]);
      // A transaction whose statement is in flight when the connection is reset: the statement
      // fails, and the transaction's ROLLBACK is sent before the socket has closed.
      const tx = sql.begin(async (t) => t`select pg_sleep(1), 'never' as said`);
      await new Promise((r) => setTimeout(r, 300));
      expect(clients.size).toBe(1);
      for (const client of clients) client.resetAndDestroy();
      await expect(within(tx)).rejects.toMatchObject({ code: expect.stringMatching(/^(ECONNRESET|CONNECTION_CLOSED)$/) });
      // The pool reconnects; each statement gets its own answer (the ROLLBACK left queued on the
      // dead socket took the next answer and left the one after it waiting for ever).
      expect(await within(sql`select 'after' as said`)).toEqual([{ said: 'after' }]);
      expect(await within(sql`select 'again' as said`)).toEqual([{ said: 'again' }]);
      expect(await within(sql.begin(async (t) => t`select 'in a transaction' as said`))).toEqual([{ said: 'in a transaction' }]);
    } finally {
      await sql.end({ timeout: 1 }).catch(() => undefined);
      for (const client of clients) client.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 60_000);
});
