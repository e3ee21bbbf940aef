/**
 * Many server processes behind PgBouncer in transaction mode: starts Debian's PgBouncer
 * (bench/_pgbouncer.ts), seeds (once) one organization with 20,000 receivables documents into
 * PostgreSQL, then for 1, 2 and 4 server processes (real `src/main.ts` children, each with its own
 * pool of DATABASE_POOL_SIZE connections to PgBouncer, DATABASE_POOLER=pgbouncer-transaction)
 * sends BENCH_SECONDS of mixed requests over HTTP, spread evenly over the processes: keyed reads
 * (GET an invoice), list pages (GET /v1/receivables/invoices, a first page or the next one) and
 * creates (POST /v1/receivables/invoices with an Idempotency-Key; one in four sent again with the
 * same key once answered). Then counts, in the database, the invoices each run created: one per key
 * answered 201, none twice, none lost, and every retry answered with the first answer's invoice.
 * Prints throughput, p50 and p99 per process count, the CPU each party used (PostgreSQL, PgBouncer,
 * the servers, this load generator) and PASS or FAIL (no error, no duplicate, no lost write). At 4
 * processes one of them runs with --cpu-prof: its profile's heaviest functions and modules are printed.
 * Then the same process counts straight to PostgreSQL (no pooler, BENCH_MODES=pgbouncer,direct by
 * default): the baseline each PgBouncer figure is printed beside.
 *
 *   npm run bench -- pooled
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_pooled BENCH_SECONDS=10 BENCH_CONCURRENCY=16 npm run bench -- pooled
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, queryRows, sql, type Database } from '../src/db/client';
import { createApiKey, rolePermissions } from '../src/services/access/admin';
import { startServerProcess, type ServerProcess } from '../tests/helpers/server-process';
import { startPgbouncer, type Pgbouncer } from './_pgbouncer';
import { seedListOrganization } from './seed-list';

const directUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_pooled';
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
/** Requests in flight at once, whatever the number of processes (spread evenly over them). */
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const poolSize = Number(process.env.BENCH_POOL_SIZE ?? 10);
const processCounts = (process.env.BENCH_PROCESSES ?? '1,2,4').split(',').map(Number);
/**
 * `pgbouncer`: the processes behind PgBouncer (what is judged); `direct`: the same processes and
 * pools straight to PostgreSQL, the baseline that shows what the pooler itself costs.
 */
type Mode = 'pgbouncer' | 'direct';
const modes = (process.env.BENCH_MODES ?? 'pgbouncer,direct').split(',') as Mode[];
const DOCUMENTS = 20_000;
const orgName = `Bench pooled ${DOCUMENTS}`;

interface World {
  organizationId: string;
  apiKey: string;
  invoiceIds: string[];
  customerId: string;
  accountId: string;
  taxCodeId: string;
}

async function seeded(db: Database): Promise<World> {
  const [found] = await queryRows<{ id: string }>(db, sql`select id from organizations where name = ${orgName} limit 1`);
  let organizationId: string;
  let apiKey: string;
  if (!found) {
    process.stdout.write(`Seeding ${DOCUMENTS.toLocaleString('en')} documents into ${directUrl} ...\n`);
    const s = await seedListOrganization(db, { name: orgName, documents: DOCUMENTS, bulk: true });
    organizationId = s.organizationId;
    apiKey = s.apiKey;
  } else {
    organizationId = found.id;
    const [owner] = await queryRows<{ id: string }>(db, sql`select id from members where organization_id = ${organizationId} and name = 'Bench owner' limit 1`);
    apiKey = (await createApiKey(db, { organizationId, ownerMemberId: owner!.id, permissions: rolePermissions('owner') })).token;
  }
  const ids = await queryRows<{ id: string }>(db, sql`select id from receivable_documents where organization_id = ${organizationId} order by id limit 2000`);
  const [refs] = await queryRows<{ customer_id: string; account_id: string; tax_code_id: string }>(
    db,
    sql`select (select id from customers where organization_id = ${organizationId} order by code limit 1) as customer_id,
               (select id from accounts where organization_id = ${organizationId} and code = '4000') as account_id,
               (select id from tax_codes where organization_id = ${organizationId} and code = 'SV8') as tax_code_id`,
  );
  return { organizationId, apiKey, invoiceIds: ids.map((r) => r.id), customerId: refs!.customer_id, accountId: refs!.account_id, taxCodeId: refs!.tax_code_id };
}

/** CPU ticks (user + system, USER_HZ = 100 per second) per process whose command name and command line match. */
function cpuTicksOf(match: (comm: string, pid: number, cmdline: string) => boolean): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!match(comm, Number(pid), readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(Number(pid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

/** CPU seconds the processes alive at the end used since `before` (a process started meanwhile counts from zero). */
function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / 100;
}

interface Outcome {
  kind: 'read' | 'list' | 'create' | 'retry';
  ms: number;
  ok: boolean;
  detail?: string;
}

interface RunResult {
  outcomes: Outcome[];
  /** Idempotency-Key → the invoice its 201 named, and its customer_reference. */
  created: Map<string, { id: string; reference: string }>;
  retriesDiffering: number;
}

async function drive(servers: ServerProcess[], w: World, run: string, until: number): Promise<RunResult> {
  const outcomes: Outcome[] = [];
  const created = new Map<string, { id: string; reference: string }>();
  let retriesDiffering = 0;
  let n = 0;
  const auth = { authorization: `Bearer ${w.apiKey}` };
  const timed = async (kind: Outcome['kind'], url: string, init: RequestInit, expect: number): Promise<any> => {
    const t0 = performance.now();
    try {
      const res = await fetch(url, init);
      const text = await res.text();
      const ok = res.status === expect;
      outcomes.push({ kind, ms: performance.now() - t0, ok, ...(ok ? {} : { detail: `${kind} ${res.status} ${text.slice(0, 200)}` }) });
      return ok ? JSON.parse(text) : undefined;
    } catch (e) {
      outcomes.push({ kind, ms: performance.now() - t0, ok: false, detail: `${kind} ${String(e)}` });
      return undefined;
    }
  };
  const worker = async (i: number) => {
    const base = servers[i % servers.length]!.url;
    let cursor: string | undefined;
    while (Date.now() < until) {
      const k = n++;
      const pick = k % 20;
      if (pick < 11) {
        const id = w.invoiceIds[(k * 7919) % w.invoiceIds.length]!;
        await timed('read', `${base}/v1/receivables/invoices/${id}`, { headers: auth }, 200);
      } else if (pick < 16) {
        const page = await timed('list', `${base}/v1/receivables/invoices?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: auth }, 200);
        cursor = page?.next_cursor && k % 3 !== 0 ? page.next_cursor : undefined;
      } else {
        const key = randomUUID();
        const reference = `PB-${run}-${k}`;
        const body = JSON.stringify({
          kind: 'sales_invoice',
          customer_id: w.customerId,
          customer_reference: reference,
          lines: [{ account_id: w.accountId, description: 'Pooled bench', quantity: '1', unit_price: '100.00', tax_code_id: w.taxCodeId }],
        });
        const init = { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key }, body };
        const doc = await timed('create', `${base}/v1/receivables/invoices`, init, 201);
        if (doc) created.set(key, { id: doc.id, reference });
        if (doc && pick === 19) {
          // The same key again, through another process: the stored answer, the same invoice.
          const again = await timed('retry', `${servers[(i + 1) % servers.length]!.url}/v1/receivables/invoices`, init, 201);
          if (again && again.id !== doc.id) retriesDiffering += 1;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
  return { outcomes, created, retriesDiffering };
}

/** What the database holds for a run: invoices per customer_reference of that run. */
async function counted(db: Database, w: World, run: string, r: RunResult) {
  const rows = await queryRows<{ customer_reference: string; id: string }>(
    db,
    sql`select customer_reference, id from receivable_documents where organization_id = ${w.organizationId} and customer_reference like ${`PB-${run}-%`}`,
  );
  const byReference = new Map<string, string[]>();
  for (const row of rows) byReference.set(row.customer_reference, [...(byReference.get(row.customer_reference) ?? []), row.id]);
  const duplicates = [...byReference.values()].filter((ids) => ids.length > 1).length;
  const lost = [...r.created.values()].filter((c) => !(byReference.get(c.reference) ?? []).includes(c.id)).length;
  const acknowledged = new Set([...r.created.values()].map((c) => c.reference));
  const unacknowledged = [...byReference.keys()].filter((ref) => !acknowledged.has(ref)).length;
  return { rows: rows.length, duplicates, lost, unacknowledged };
}

const quantile = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
};

interface Profiled {
  args: string[];
  dir: string;
}

async function phase(pgb: Pgbouncer, db: Database, w: World, mode: Mode, processes: number, profile?: Profiled) {
  const database = new URL(directUrl).pathname.slice(1);
  const env = {
    ...(mode === 'pgbouncer' ? { DATABASE_URL: pgb.url(database), DATABASE_POOLER: 'pgbouncer-transaction', DATABASE_DIRECT_URL: directUrl } : { DATABASE_URL: directUrl, DATABASE_POOLER: 'none' }),
    DATABASE_POOL_SIZE: String(poolSize),
    LOG_LEVEL: 'error',
    RATE_LIMIT_PER_KEY: '100000000',
    RATE_LIMIT_PER_ORGANIZATION: '100000000',
    RATE_LIMIT_PER_MEMBER: '100000000',
  };
  const servers: ServerProcess[] = [];
  for (let i = 0; i < processes; i++) servers.push(await startServerProcess(env, i === 0 && profile ? { args: profile.args } : {}));
  const serverPids = new Set(servers.map((s) => s.child.pid!));
  const run = randomUUID().slice(0, 8);
  // A few seconds of warm-up (JIT, connections), not counted.
  await drive(servers, w, `${run}w`, Date.now() + 3000);
  // PostgreSQL: the backends of the benchmark's database only (their title names it), not other users'.
  const cpu = () => ({
    postgres: cpuTicksOf((c, _pid, cmdline) => c === 'postgres' && cmdline.includes(` ${database} `)),
    pgbouncer: cpuTicksOf((c) => c === 'pgbouncer'),
    servers: cpuTicksOf((_c, pid) => serverPids.has(pid)),
    bench: new Map([[process.pid, (process.cpuUsage().user + process.cpuUsage().system) / 1e4]]),
  });
  const before = cpu();
  const from = monotonicUs();
  const t0 = Date.now();
  const result = await drive(servers, w, run, t0 + seconds * 1000);
  const elapsed = (Date.now() - t0) / 1000;
  const window = { from, to: monotonicUs() };
  const after = cpu();
  await Promise.all(servers.map((s) => s.stop()));
  const counts = await counted(db, w, run, result);
  const ms = result.outcomes.map((o) => o.ms);
  const errors = result.outcomes.filter((o) => !o.ok);
  const used = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, cpuSecondsBetween(before[k as keyof typeof before], v) / elapsed])) as Record<keyof typeof before, number>;
  return { mode, processes, window, requests: ms.length, rps: ms.length / elapsed, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), errors, creates: result.created.size, retriesDiffering: result.retriesDiffering, counts, used, byKind: byKind(result.outcomes) };
}

function byKind(outcomes: Outcome[]) {
  const kinds = ['read', 'list', 'create', 'retry'] as const;
  return kinds.map((k) => {
    const ms = outcomes.filter((o) => o.kind === k).map((o) => o.ms);
    return `${k} ${ms.length} p50 ${quantile(ms, 0.5).toFixed(1)} p99 ${quantile(ms, 0.99).toFixed(1)}`;
  });
}

/** The monotonic clock in microseconds, the clock V8's profiles are stamped with (CLOCK_MONOTONIC, shared by every process). */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * The profile's samples within the measured window (start-up and warm-up left out): self time by
 * where the code lives and by function (top 15), as shares of the busy (not idle) time.
 */
function summarizeProfile(dir: string, window: { from: number; to: number }): string[] {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return ['(no profile written)'];
  const p = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = p.startTime;
  let idle = 0;
  p.samples.forEach((id, i) => {
    const delta = p.timeDeltas[i] ?? 0;
    at += delta;
    if (at < window.from || at > window.to) return;
    if (byId.get(id)!.callFrame.functionName === '(idle)') idle += delta;
    else self.set(id, (self.get(id) ?? 0) + delta);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const area = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/src\//, 'src/');
    fn.set(`${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`, (fn.get(`${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`) ?? 0) + us);
    const a = functionName === '(garbage collector)' ? '(gc)' : url.includes('node_modules/')
      ? url.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1') : url.includes('/src/') ? 'src (the service)' : url === '' ? '(native, program)' : 'node internals';
    area.set(a, (area.get(a) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([name, us]) => `  ${pct(us)}  ${name}`);
  const busy = (100 * total) / Math.max(1, total + idle);
  return [`profile of one of the 4 processes over the measured ${((total + idle) / 1e6).toFixed(1)} s: busy ${busy.toFixed(0)}% of it; of the busy time:`, 'by area:', ...top(area, 12), 'by function (self time):', ...top(fn, 15)];
}

async function main() {
  const pgb = await startPgbouncer();
  const direct = await openDatabase({ url: directUrl, poolSize: 4 });
  try {
    await direct.migrate();
    const w = await seeded(direct.db);
    process.stdout.write(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}; PgBouncer transaction mode, default_pool_size from bench/_pgbouncer.ts; ${concurrency} requests in flight; pool of ${poolSize} per process; ${seconds} s per process count\n`);
    const results = [];
    for (const mode of modes) {
      for (const processes of processCounts) {
        const profileDir = mkdtempSync(join(tmpdir(), 'pooled-prof-'));
        const profile = processes === 4 && mode === 'pgbouncer' ? { args: ['--cpu-prof', '--cpu-prof-dir', profileDir, '--import', 'tsx', 'src/main.ts'], dir: profileDir } : undefined;
        const r = await phase(pgb, direct.db, w, mode, processes, profile);
        results.push(r);
        const u = r.used;
        process.stdout.write(
          `\n${processes} process(es), ${mode === 'pgbouncer' ? 'behind PgBouncer' : 'straight to PostgreSQL'}: ${r.requests} requests, ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, errors ${r.errors.length}\n` +
            `  ${r.byKind.join(' | ')}\n` +
            `  creates answered 201: ${r.creates}; in the database: ${r.counts.rows} rows, duplicates ${r.counts.duplicates}, lost ${r.counts.lost}, unacknowledged ${r.counts.unacknowledged}; retries answering another invoice ${r.retriesDiffering}\n` +
            `  CPU (cores busy): postgres ${u.postgres.toFixed(2)}, pgbouncer ${u.pgbouncer.toFixed(2)}, servers ${u.servers.toFixed(2)}, load generator ${u.bench.toFixed(2)}; load average ${loadavg()[0]!.toFixed(1)}\n`,
        );
        for (const e of r.errors.slice(0, 5)) process.stdout.write(`  error: ${e.detail}\n`);
        if (profile) for (const line of summarizeProfile(profile.dir, r.window)) process.stdout.write(`${line}\n`);
        rmSync(profileDir, { recursive: true, force: true });
      }
    }
    process.stdout.write('\nmode       processes  req/s   p50 ms   p99 ms  errors  duplicates  lost  req/s of direct\n');
    for (const r of results) {
      const baseline = results.find((b) => b.mode === 'direct' && b.processes === r.processes);
      const ofDirect = r.mode === 'pgbouncer' && baseline ? (r.rps / baseline.rps).toFixed(2) : '';
      process.stdout.write(
        `${r.mode.padEnd(9)}  ${String(r.processes).padStart(9)}  ${r.rps.toFixed(0).padStart(5)}  ${r.p50.toFixed(1).padStart(7)}  ${r.p99.toFixed(1).padStart(7)}  ${String(r.errors.length).padStart(6)}  ${String(r.counts.duplicates).padStart(10)}  ${String(r.counts.lost).padStart(4)}  ${ofDirect.padStart(15)}\n`,
      );
    }
    const pass = results.every((r) => r.errors.length === 0 && r.counts.duplicates === 0 && r.counts.lost === 0 && r.counts.unacknowledged === 0 && r.retriesDiffering === 0);
    process.stdout.write(`${pass ? 'PASS' : 'FAIL'}: no error, no duplicate, no lost write at ${processCounts.join(', ')} processes (${modes.join(', ')})\n`);
    process.exitCode = pass ? 0 : 1;
  } finally {
    await direct.close();
    await pgb.stop();
  }
}

await main();
