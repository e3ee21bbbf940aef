/**
 * Overhead of idempotent writes: the same create (receivables.customers.create over /trpc, through
 * fastify.inject, so no socket noise) made with a session without an Idempotency-Key, with a fresh
 * key each time, and replayed under one key. Prints latency figures and throughput.
 *
 *   npx tsx bench/idempotency.ts                 # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/idempotency.ts
 *   N=1000 CONCURRENCY=8 npx tsx bench/idempotency.ts
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { pino } from 'pino';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/client';
import type { AppDeps } from '../src/deps';
import { buildServer } from '../src/server';
import { addMember, createOrganization, createSession } from '../src/services/access/admin';
import { createRateLimits } from '../src/services/rate-limit/limits';

const N = Number(process.env.N ?? 500);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { mean, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

async function main() {
  const url = process.env.DATABASE_URL;
  const handle = await openDatabase(url ? { url, poolSize: Math.max(10, CONCURRENCY + 2) } : { dataDir: 'memory://' });
  await handle.migrate();
  // Required with DATABASE_URL; the benchmark writes no payout channels, so a throwaway key will do.
  const payoutKey = process.env.PAYOUT_ENCRYPTION_KEY ?? randomBytes(32).toString('hex');
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', PAYOUT_ENCRYPTION_KEY: payoutKey } as NodeJS.ProcessEnv);
  const deps: AppDeps = {
    db: handle.db,
    dbKind: handle.kind,
    config,
    log: pino({ level: 'silent' }),
    now: () => new Date(),
    rateLimits: createRateLimits(config, handle.kind, handle.db),
  };
  const app = await buildServer(deps);

  const org = await createOrganization(handle.db, { name: `Bench ${randomUUID()}` });
  const member = await addMember(handle.db, { organizationId: org.id, name: 'Bench', roles: ['owner'] });
  const session = (await createSession(handle.db, { organizationId: org.id, memberId: member.id, now: new Date() })).token;

  let seq = 0;
  let inProgress = 0;
  const create = async (key?: string, code?: string) => {
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/trpc/receivables.customers.create',
      headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      payload: JSON.stringify({ code: code ?? `B-${++seq}-${randomUUID().slice(0, 6)}`, legal_name: 'Bench Sdn Bhd', payment_terms_days: 30 }),
    });
    const elapsed = performance.now() - started;
    // Concurrent replays of one key meet its lock: 409 idempotency_in_progress is the designed answer.
    if (res.statusCode === 409 && res.body.includes('idempotency_in_progress')) inProgress++;
    else if (res.statusCode !== 201) throw new Error(`unexpected ${res.statusCode}: ${res.body}`);
    return elapsed;
  };

  const modes: Record<string, (i: number) => Promise<number>> = {
    'no key': () => create(),
    'fresh key': () => create(randomUUID()),
  };
  const replayKey = randomUUID();
  const replayCode = `R-${randomUUID().slice(0, 8)}`;
  await create(replayKey, replayCode);
  modes['replay'] = () => create(replayKey, replayCode);

  // Warm up every path.
  for (const run of Object.values(modes)) for (let i = 0; i < 30; i++) await run(i);

  const sequential: Record<string, number[]> = { 'no key': [], 'fresh key': [], replay: [] };
  // Interleaved, so drift of the database (table growth, autovacuum) hits every mode alike.
  for (let i = 0; i < N; i++) for (const [name, run] of Object.entries(modes)) sequential[name]!.push(await run(i));

  const throughput: Record<string, number> = {};
  const busy: Record<string, number> = {};
  for (const [name, run] of Object.entries(modes)) {
    let next = 0;
    inProgress = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < N) await run(next++);
      }),
    );
    throughput[name] = N / ((performance.now() - started) / 1000);
    busy[name] = inProgress;
  }

  const fmt = (n: number) => n.toFixed(2).padStart(7);
  const base = stats(sequential['no key']!);
  const lines = [
    `idempotency overhead — database ${handle.kind}${url ? '' : ' (in memory)'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`,
    `N=${N} sequential creates per mode (interleaved), then N at concurrency ${CONCURRENCY}; receivables.customers.create over /trpc (fastify.inject), session caller`,
    '',
    'mode        mean ms   p50 ms   p95 ms   p99 ms   vs no key (mean)   req/s @conc  409 in progress @conc',
  ];
  for (const [name, ms] of Object.entries(sequential)) {
    const s = stats(ms);
    const delta = s.mean - base.mean;
    lines.push(
      `${name.padEnd(10)} ${fmt(s.mean)}  ${fmt(s.p50)}  ${fmt(s.p95)}  ${fmt(s.p99)}   ${(delta >= 0 ? '+' : '') + delta.toFixed(2)} ms (${((delta / base.mean) * 100).toFixed(0)}%)`.padEnd(72) +
        `${throughput[name]!.toFixed(0).padStart(6)}   ${String(busy[name]).padStart(6)}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);

  await app.close();
  await handle.close();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
