/**
 * Benchmarks that carry their own floor (DESIGN section 19, issue 13). On PostgreSQL:
 *
 * 1. Seeds (once) the demo data set and, each run, a fresh owner API key and a 5-line draft invoice.
 * 2. Counts statements per request: the service built in this process on a driver with a counting
 *    hook, ~50 requests per scenario through `app.inject`, the warm ones counted; the statements of
 *    warm requests are captured (texts and parameters) for the floor.
 * 3. Starts the service as `npm start` does (`npm run build`, then `node dist/main.js`) and the floor (bench/floor-server.ts: bare
 *    fastify + postgres.js, prepared statements, running the captured statements) as child
 *    processes on the same database, and drives both with autocannon, interleaved by round.
 *    Beside it the minimal floor (bench/minimal-floor-server.ts: the same routes written by hand with
 *    the fewest statements for the same answer and duties), and, when Redis answers at
 *    BENCH_REDIS_URL (default redis://127.0.0.1:6379; BENCH_REDIS=0 for none), the service once more
 *    with REDIS_URL (rate limits in Redis).
 * 4. Prints req/s, p50, p99, the ratio service/floor and service/minimal floor, statements per
 *    request and the service's resident memory under load, each beside its floor with PASS or FAIL;
 *    and a session's customer read beside the key's in the same rounds. Exits 0 either way. The
 *    ratio judged is the median of the rounds' own ratios (each round's service req/s over the floor's
 *    in the same round): a few seconds in which the machine slowed one side (this VM's speed drifts
 *    by a third within a minute) move one round's ratio, not the figure. The ratio of the totals is
 *    printed beside it.
 *
 *   npm run bench -- floor
 *   DATABASE_URL=postgres://... BENCH_SECONDS=3 BENCH_ROUNDS=8 BENCH_CONNECTIONS=10 npm run bench -- floor   (the defaults: eight short rounds, each a pair of the two sides run one after the other, in alternating order, under the same conditions of a noisy machine)
 *   BENCH_WARMUP_SECONDS=3 npm run bench -- floor  (unmeasured load on each side before each scenario; 0 for none)
 *   BENCH_FRESH=0 npm run bench -- floor           (keep the database as the last run left it; default: a fresh copy of the seeded template)
 *   BENCH_RESEED=1 npm run bench -- floor          (seed the template again)
 *   BENCH_SHOW_SQL=1 npm run bench -- floor        (also prints the statements of one request per scenario)
 *   BENCH_LIST_LIMIT=100 npm run bench -- floor    (list page size; the default page when unset)
 *   BENCH_ONLY=customer,list npm run bench -- floor (a subset of the scenarios)
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync, readFileSync, mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Options as AutocannonOptions } from 'autocannon';
import { pino } from 'pino';
import postgres from 'postgres';
import { loadConfig } from '../src/config';
import { openDatabase, queryRows, sql } from '../src/db/client';
import { seedDemo } from '../src/demo/seed-demo';
import type { AppDeps } from '../src/deps';
import { buildServer } from '../src/server';
import { createApiKey, createSession, rolePermissions } from '../src/services/access/admin';
import { DEFAULT_LIMIT } from '../src/services/receivables/list-documents';
import { createRateLimits } from '../src/services/rate-limit/limits';
import { encode, type FloorPlan, type ParamRole, type PlannedStatement, type RoutePlan } from './floor-plan';
import { buildService, LIMITS_OUT_OF_REACH, startBuiltService, startChild, type Child } from './service-process';
import { median } from './stats';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench_floor';
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 8);
/** Unmeasured load on each side before a scenario's rounds. */
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const countRequests = Number(process.env.BENCH_COUNT_REQUESTS ?? 50);
/** Requests of the counting phase not counted (caches filling, statements being prepared). */
const coldRequests = 5;
const showSql = process.env.BENCH_SHOW_SQL === '1';
/** Page size of the list scenario; the service's default page when unset. */
const listLimit = process.env.BENCH_LIST_LIMIT;
const DEMO_ORG = 'Acme Trading Sdn Bhd';
const LIMITS = LIMITS_OUT_OF_REACH;

interface Scenario {
  key: 'customer' | 'invoice' | 'list' | 'create' | 'session';
  label: string;
  /** Minimum share of the floor's req/s. */
  floor: number;
  /** Minimum share of the minimal floor's req/s. */
  minimal: number;
  /** The session scenario: the service only, judged against its own keyed customer read. */
  sessionOf?: 'customer';
  /** Most statements per warm request. */
  statements: number;
  method: 'GET' | 'POST';
  route: string;
  path: string;
  status: number;
}

/**
 * Every run starts from the same data: the demo data set is seeded once into a template database
 * (`<name>_seeded`, migrated and seeded on first use, or again with BENCH_RESEED=1), and the
 * benchmark's database is a fresh copy of it (dropped, then created from the template). Without it,
 * each run's creates (thousands of 5-line drafts) became the next run's first list page, and the
 * figures drifted from run to run. BENCH_FRESH=0 keeps the database as the last run left it.
 */
async function prepareDatabase() {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const templateName = `${name}_seeded`;
  const quote = (n: string) => `"${n.replace(/"/g, '""')}"`;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    const [found] = await client`select 1 from pg_database where datname = ${templateName}`;
    if (!found || process.env.BENCH_RESEED === '1') {
      await client.unsafe(`drop database if exists ${quote(templateName)} with (force)`);
      await client.unsafe(`create database ${quote(templateName)}`);
      const templateUrl = new URL(url);
      templateUrl.pathname = `/${encodeURIComponent(templateName)}`;
      const seeding = await openDatabase({ url: templateUrl.toString(), poolSize: 10 });
      try {
        await seeding.migrate();
        process.stdout.write(`Seeding the demo data set into ${templateName} ...\n`);
        const t0 = Date.now();
        const seedDeps = depsFor(seeding.db, templateUrl.toString(), randomBytes(32).toString('hex'), randomBytes(24).toString('hex'));
        await seedDemo(seedDeps, new Date());
        // A database in use: the create scenario's drafts already there, and statistics that match
        // the tables' sizes. On a copy of the demo data alone (16 documents), the create's
        // statements ran against tables planned as tiny, and PostgreSQL's time per create grew from
        // 2 to 7 ms within a run.
        const fx = await benchFixtures(seeding.db);
        const app = await buildServer(seedDeps);
        try {
          let made = 0;
          await Promise.all(
            Array.from({ length: 10 }, async () => {
              while (made < TEMPLATE_DRAFTS) {
                made++;
                const res = await app.inject({
                  method: 'POST',
                  url: '/v1/receivables/invoices',
                  headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
                  payload: fx.createBody,
                });
                if (res.statusCode !== 201) throw new Error(`seeding drafts: ${res.statusCode} ${res.body}`);
              }
            }),
          );
        } finally {
          await app.close();
        }
        await queryRows(seeding.db, sql`vacuum analyze`);
        process.stdout.write(`Seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s (the demo data set and ${TEMPLATE_DRAFTS} drafts)\n`);
      } finally {
        await seeding.close();
      }
    }
    const [exists] = await client`select 1 from pg_database where datname = ${name}`;
    if (process.env.BENCH_FRESH !== '0' || !exists) {
      await client.unsafe(`drop database if exists ${quote(name)} with (force)`);
      await client.unsafe(`create database ${quote(name)} template ${quote(templateName)}`);
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** The demo organization, a fresh owner API key, and the body of the benchmark's 5-line invoice. */
async function benchFixtures(db: AppDeps['db']) {
  const [org] = await queryRows<{ id: string }>(db, sql`select id from organizations where name = ${DEMO_ORG} order by created_at limit 1`);
  if (!org) throw new Error('demo organization missing after the seed');
  const organizationId = org.id;
  const [owner] = await queryRows<{ id: string }>(
    db,
    sql`select m.id from members m join member_roles mr on mr.organization_id = m.organization_id and mr.member_id = m.id
        join roles r on r.organization_id = mr.organization_id and r.id = mr.role_id
        where m.organization_id = ${organizationId} and m.active and r.key = 'owner' order by m.created_at limit 1`,
  );
  if (!owner) throw new Error('demo owner missing');
  const apiKey = (await createApiKey(db, { organizationId, ownerMemberId: owner.id, name: 'bench floor', permissions: rolePermissions('owner') })).token;
  const sessionToken = (await createSession(db, { organizationId, memberId: owner.id, now: new Date() })).token;
  const [customer] = await queryRows<{ id: string; currency: string }>(
    db,
    sql`select c.id, c.currency from customers c join organizations o on o.id = c.organization_id
        where c.organization_id = ${organizationId} and c.is_active and c.currency = o.base_currency
          and not exists (select 1 from counterparty_mappings m where m.organization_id = c.organization_id and m.customer_id = c.id)
        order by c.created_at limit 1`,
  );
  const [account] = await queryRows<{ id: string }>(db, sql`select id from accounts where organization_id = ${organizationId} and type = 'revenue' and active order by code limit 1`);
  const [taxCode] = await queryRows<{ id: string }>(db, sql`select id from tax_codes where organization_id = ${organizationId} and active and tax_type = '01' order by code limit 1`);
  if (!customer || !account || !taxCode) throw new Error('demo customer, revenue account or tax code missing');
  const createBody = JSON.stringify({
    kind: 'sales_invoice',
    customer_id: customer.id,
    currency: customer.currency,
    customer_reference: 'PO-BENCH',
    lines: Array.from({ length: 5 }, (_, i) => ({
      account_id: account.id,
      description: `Bench line ${i + 1}`,
      quantity: String(i + 1),
      unit_price: '12.50',
      tax_code_id: taxCode.id,
    })),
  });
  return { organizationId, apiKey, sessionToken, customer, createBody };
}

/** Drafts already in the template: the create scenario's own request, made this many times. */
const TEMPLATE_DRAFTS = 5_000;

/** The service's dependencies as the benchmark builds it in process (limits out of reach, no jobs). */
function depsFor(db: AppDeps['db'], databaseUrl: string, payoutKey: string, cursorSecret: string): AppDeps {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    PAYOUT_ENCRYPTION_KEY: payoutKey,
    CURSOR_SECRET: cursorSecret,
    LOG_LEVEL: 'silent',
    DATABASE_POOL_SIZE: '10',
    RATE_LIMIT_PER_KEY: LIMITS,
    RATE_LIMIT_PER_ORGANIZATION: LIMITS,
    RATE_LIMIT_PER_MEMBER: LIMITS,
    IDEMPOTENCY_PURGE_INTERVAL_SECONDS: '0',
    JOB_POLL_INTERVAL_MS: '0',
  } as NodeJS.ProcessEnv);
  return { db, dbKind: 'postgres', config, log: pino({ level: 'silent' }), now: () => new Date(), rateLimits: createRateLimits(config, 'postgres', db) };
}

/** CPU time (user + system) a process has used so far, in ms (from /proc/<pid>/stat, 100 ticks a second). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU time of every PostgreSQL process on this machine (its backends, writer, WAL writer...), in ms. */
function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += cpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(encode(a)) === JSON.stringify(encode(b));
}

/**
 * Marks each parameter of the statements of one request (`a`), compared with another request of
 * the same scenario (`b`): identical values are constants, the rest are derived per request.
 */
function planStatements(
  a: Captured[],
  b: Captured[],
  known: { pathId?: string; tokenHash: string; idempotencyKey?: string },
): PlannedStatement[] {
  return a.map((stmt, i) => {
    const other = b?.[i];
    const params: ParamRole[] = stmt.params.map((value, j) => {
      if (typeof value === 'string') {
        if (known.pathId && value === known.pathId) return { kind: 'path_id' };
        if (value === known.tokenHash) return { kind: 'token_hash' };
        if (known.idempotencyKey && value === known.idempotencyKey) return { kind: 'idempotency_key' };
      }
      if (other && other.text === stmt.text && sameValue(other.params[j], value)) return { kind: 'const', value: encode(value) };
      return { kind: 'per_request', value: encode(value) };
    });
    return { text: stmt.text, params };
  });
}

interface Captured {
  text: string;
  params: unknown[];
}

function stats(values: number[]) {
  const s = [...values].sort((x, y) => x - y);
  return { mean: s.reduce((x, y) => x + y, 0) / Math.max(1, s.length), max: s[s.length - 1] ?? 0 };
}

async function main() {
  await prepareDatabase();
  let capturing: Captured[] | undefined;
  let counted = 0;
  const handle = await openDatabase({
    url,
    poolSize: 10,
    onQuery: (text, params) => {
      counted++;
      capturing?.push({ text, params: [...params] });
    },
  });
  await handle.migrate();
  const db = handle.db;
  const payoutKey = process.env.PAYOUT_ENCRYPTION_KEY ?? randomBytes(32).toString('hex');
  const cursorSecret = process.env.CURSOR_SECRET ?? randomBytes(24).toString('hex');
  const deps = depsFor(db, url, payoutKey, cursorSecret);

  // 1. The demo data set (from the template); a fresh owner key each run.
  const { apiKey, sessionToken, customer, createBody } = await benchFixtures(db);
  const tokenHash = createHash('sha256').update(apiKey).digest('hex');
  const app = await buildServer(deps);
  const auth = { authorization: `Bearer ${apiKey}` };
  const created = await app.inject({
    method: 'POST',
    url: '/v1/receivables/invoices',
    headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    payload: createBody,
  });
  if (created.statusCode !== 201) throw new Error(`seeding the 5-line invoice: ${created.statusCode} ${created.body}`);
  const invoiceId = (created.json() as { id: string }).id;

  const allScenarios: Scenario[] = [
    { key: 'customer', label: 'GET customer (keyed)', floor: 0.8, minimal: 0.7, statements: 2, method: 'GET', route: '/v1/receivables/customers/:id', path: `/v1/receivables/customers/${customer.id}`, status: 200 },
    { key: 'invoice', label: 'GET invoice (keyed)', floor: 0.8, minimal: 0.7, statements: 2, method: 'GET', route: '/v1/receivables/invoices/:id', path: `/v1/receivables/invoices/${invoiceId}`, status: 200 },
    { key: 'list', label: 'GET invoices, first page', floor: 0.7, minimal: 0.6, statements: 2, method: 'GET', route: '/v1/receivables/invoices', path: `/v1/receivables/invoices?limit=${listLimit ?? DEFAULT_LIMIT}`, status: 200 },
    { key: 'create', label: 'POST invoice, 5 lines (keyed)', floor: 0.5, minimal: 0.5, statements: 10, method: 'POST', route: '/v1/receivables/invoices', path: '/v1/receivables/invoices', status: 201 },
    { key: 'session', label: 'GET customer (session)', floor: 0.9, minimal: 0, sessionOf: 'customer', statements: 2, method: 'GET', route: '/v1/receivables/customers/:id', path: `/v1/receivables/customers/${customer.id}`, status: 200 },
  ];

  const tokenOf = (s: Scenario) => (s.sessionOf ? sessionToken : apiKey);

  // 2. Statements per request, counted in this process (not timed).
  const perRequest: Record<string, number> = {};
  const plans: Record<string, RoutePlan> = {};
  const sqlShown: string[] = [];
  // BENCH_ONLY=customer,list runs a subset (keys: customer, invoice, list, create, session).
  const only = process.env.BENCH_ONLY?.split(',').map((k) => k.trim()).filter(Boolean);
  const scenarios = only?.length ? allScenarios.filter((s) => only.includes(s.key)) : allScenarios;
  for (const s of scenarios) {
    const counts: number[] = [];
    const captures: { statements: Captured[]; idempotencyKey?: string }[] = [];
    for (let i = 0; i < countRequests; i++) {
      const idempotencyKey = s.method === 'POST' ? randomUUID() : undefined;
      capturing = [];
      counted = 0;
      const res = await app.inject({
        method: s.method,
        url: s.path,
        headers: { authorization: `Bearer ${tokenOf(s)}`, ...(s.method === 'POST' ? { 'content-type': 'application/json', 'idempotency-key': idempotencyKey! } : {}) },
        ...(s.method === 'POST' ? { payload: createBody } : {}),
      });
      if (res.statusCode !== s.status) throw new Error(`${s.label}: ${res.statusCode} ${res.body}`);
      // Anything the process does off the request path (a deferred write) lands before the next request.
      await new Promise((r) => setTimeout(r, 5));
      if (i >= coldRequests) counts.push(counted);
      if (i >= countRequests - 6) captures.push({ statements: capturing, idempotencyKey });
    }
    capturing = undefined;
    perRequest[s.key] = stats(counts).mean;
    // The session's read is judged against the service's keyed read, not replayed by the floor.
    if (s.sessionOf) continue;
    // The latest two consecutive requests that ran the same statements (an occasional extra one,
    // e.g. a key's last use recorded once a minute, is left out of the plan).
    const texts = (c: { statements: Captured[] }) => c.statements.map((st) => st.text).join('\u0000');
    let pair = captures.length - 1;
    while (pair > 0 && texts(captures[pair]!) !== texts(captures[pair - 1]!)) pair--;
    if (pair === 0) throw new Error(`${s.label}: no two consecutive warm requests ran the same statements`);
    const [a, b] = [captures[pair - 1]!, captures[pair]!];
    const capturedAt = new Date().toISOString();
    plans[s.key] = {
      method: s.method,
      route: s.route,
      status: s.status,
      capturedAt,
      capturedPathId: s.key === 'customer' ? customer.id : s.key === 'invoice' ? invoiceId : undefined,
      capturedIdempotencyKey: b?.idempotencyKey,
      // The later request is the plan; the earlier one tells constants from per-request values.
      statements: planStatements(b.statements, a.statements, {
        pathId: s.key === 'customer' ? customer.id : s.key === 'invoice' ? invoiceId : undefined,
        tokenHash,
        idempotencyKey: b?.idempotencyKey,
      }),
    };
    if (showSql) {
      const distinct = new Set(b.statements.map((st) => st.text)).size;
      sqlShown.push(`-- ${s.label}: ${b.statements.length} statements, ${distinct} distinct (one warm request, in order)`);
      for (const st of b.statements) sqlShown.push(`${st.text.replace(/\s+/g, ' ').trim()};`);
      sqlShown.push('');
    }
  }
  await app.close();

  const work = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  const planFile = join(work, 'plan.json');
  const plan: FloorPlan = { databaseUrl: url, apiKey, routes: plans };
  writeFileSync(planFile, JSON.stringify(plan));
  if (process.env.BENCH_PLAN_OUT) {
    // For working on the floor server: the plan and the statements, then stop.
    writeFileSync(process.env.BENCH_PLAN_OUT, JSON.stringify(plan, null, 1));
    process.stdout.write(`${sqlShown.join('\n')}\nstatements/request: ${JSON.stringify(perRequest)}\n`);
    await handle.close();
    return;
  }

  // 3. The service, the floor and the minimal floor as child processes on the same database.
  // The service as `npm start` runs it: the compiled bundle (npm run build), not tsx.
  buildService();
  const redisUrl = process.env.BENCH_REDIS === '0' ? undefined : await reachableRedis(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const children: Child[] = [];
  const results: Record<string, SideRuns> = {};
  const answerBytes: string[] = [];
  try {
    const serviceEnv = { url, cursorSecret, payoutKey };
    children.push(await startService('service', serviceEnv));
    children.push(await startChild('floor', [...(process.env.BENCH_FLOOR_NODE_FLAGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', 'bench/floor-server.ts'], { FLOOR_PLAN: planFile }));
    children.push(await startChild('minimal', ['--import', 'tsx', 'bench/minimal-floor-server.ts'], { DATABASE_URL: url, MINIMAL_RATE_LIMIT: LIMITS, DATABASE_POOL_SIZE: '10', CURSOR_SECRET: cursorSecret }));
    if (redisUrl) children.push(await startService('redis', { ...serviceEnv, redisUrl }));
    const [service] = children;
    const targetsOf = (s: Scenario) => (s.sessionOf ? children.filter((c) => c.name === 'service' || c.name === 'redis') : children);
    // Every side answers before the clock starts (the floor checks its plan against the database).
    for (const s of scenarios) answerBytes.push(...(await firstAnswers(s, targetsOf(s), tokenOf(s), createBody)));
    process.stdout.write(
      `\nfloor benchmark — PostgreSQL ${url.replace(/\/\/[^@]*@/, '//')}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}\n` +
        `sides: ${children.map((c) => c.name).join(', ')}${redisUrl ? ` (redis: the service with REDIS_URL=${redisUrl})` : ' (no Redis: BENCH_REDIS=0 or none answering)'}\n` +
        `${rounds} rounds × ${seconds} s per side and scenario after ${warmupSeconds} s of unmeasured load on each, ${connections} connections\n` +
        `answer bytes: ${answerBytes.join(', ')}\n\n`,
    );
    // The session's read is judged against the same process's keyed read in the same rounds: each of
    // its rounds drives both, so a machine that slows between scenarios moves neither ratio.
    const roundTargetsOf = (s: Scenario): Target[] =>
      s.sessionOf ? targetsOf(s).flatMap((c) => [c, { ...c, name: `${c.name}, key`, token: apiKey }]) : targetsOf(s);
    for (const s of scenarios) results[s.key] = await runRounds(s, roundTargetsOf(s), service!, tokenOf(s), createBody);
  } finally {
    for (const c of children) await c.stop();
    rmSync(work, { recursive: true, force: true });
  }
  printTable(scenarios, results, perRequest);
  if (showSql) process.stdout.write(`\nStatements of one warm request per scenario (what the floor runs):\n\n${sqlShown.join('\n')}\n`);
  await handle.close();
}

/**
 * Each side's first answer to the scenario, checked for its status: "<scenario> <side> <bytes>".
 * The minimal floor's and the service-with-Redis's answers are compared with the service's (body and
 * the headers the contract names), so a ratio to the minimal floor weighs the same answer; a
 * difference is printed and stops the run.
 */
async function firstAnswers(s: Scenario, targets: Child[], token: string, createBody: string): Promise<string[]> {
  const out: string[] = [];
  let reference: Answer | undefined;
  for (const target of targets) {
    const res = await fetch(`${target.url}${s.path}`, {
      method: s.method,
      headers: { authorization: `Bearer ${token}`, ...(s.method === 'POST' ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}) },
      ...(s.method === 'POST' ? { body: createBody } : {}),
    });
    const body = await res.text();
    if (res.status !== s.status) throw new Error(`${target.name} ${s.label}: ${res.status} ${body.slice(0, 2000)}`);
    out.push(`${s.key} ${target.name} ${Buffer.byteLength(body)}`);
    const answer = answerOf(res.headers, body, s.method === 'POST');
    if (target.name === 'service') reference = answer;
    else if (reference && target.name !== 'floor') {
      const differences = differencesOf(reference, answer, '');
      if (differences.length) throw new Error(`${s.label}: ${target.name} does not answer what the service answers:\n  ${differences.slice(0, 20).join('\n  ')}`);
    }
  }
  return out;
}

interface Answer {
  headers: Record<string, unknown>;
  body: unknown;
}

/** Headers a client may rely on (values that change per request reduced to their presence) and the body, per-request values the same. */
function answerOf(headers: Headers, body: string, created: boolean): Answer {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const marked = (key: string) => (headers.has(key) ? 'present' : 'absent');
  // A create's own ids and instants are new on every side; a cursor is opaque: only whether there is one.
  const perRequest = (key: string, value: unknown) =>
    (created && ['id', 'created_at', 'updated_at'].includes(key)) || (key === 'next_cursor' && value !== null) ? 'a value' : value;
  return {
    headers: { etag: headers.get('etag'), 'content-type': headers.get('content-type'), 'ratelimit-limit': marked('ratelimit-limit'), 'ratelimit-remaining': marked('ratelimit-remaining'), 'ratelimit-reset': marked('ratelimit-reset'), 'x-request-id': marked('x-request-id') },
    body: JSON.parse(JSON.stringify(parsed, perRequest)) as unknown,
  };
}

/** Where two JSON values differ, as paths (keys in any order). */
function differencesOf(a: unknown, b: unknown, path: string): string[] {
  if (a === b) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return [`${path || '/'}: ${JSON.stringify(a)} against ${JSON.stringify(b)}`];
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => differencesOf((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`));
}

type SideRuns = Record<string, Run[]> & { rss: number };

/** A side of a scenario's rounds: a server, and the token it is driven with when not the scenario's. */
type Target = Child & { token?: string };

/**
 * One scenario on each of its sides: unmeasured load first (warm processes: code optimised by the
 * JIT, pools and prepared statements filled), then `rounds` rounds, the order turning each round so
 * that no side always runs on another's wake (its dead rows, its warm caches).
 */
async function runRounds(s: Scenario, targets: Target[], service: Child, token: string, createBody: string): Promise<SideRuns> {
  const r = Object.assign(Object.fromEntries(targets.map((t) => [t.name, [] as Run[]])), { rss: 0 }) as SideRuns;
  if (warmupSeconds > 0) for (const target of targets) await drive(target.url, s, target.token ?? token, createBody, warmupSeconds);
  for (let round = 0; round < rounds; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (const target of order) {
      const isService = target.child === service.child;
      const sampler = isService ? setInterval(() => (r.rss = Math.max(r.rss, rssMb(service.child.pid!))), 100) : undefined;
      const cpuBefore = cpuMs(target.child.pid!);
      const pgBefore = postgresCpuMs();
      const driverBefore = process.cpuUsage();
      const run = await drive(target.url, s, target.token ?? token, createBody);
      run.cpuMs = run.total > 0 ? (cpuMs(target.child.pid!) - cpuBefore) / run.total : 0;
      run.pgCpuMs = run.total > 0 ? (postgresCpuMs() - pgBefore) / run.total : 0;
      const driver = process.cpuUsage(driverBefore);
      run.driverCpuMs = run.total > 0 ? (driver.user + driver.system) / 1000 / run.total : 0;
      if (sampler) clearInterval(sampler);
      if (isService) r.rss = Math.max(r.rss, rssMb(service.child.pid!));
      r[target.name]!.push(run);
      process.stdout.write(
        `  ${s.label.padEnd(30)} round ${round + 1} ${target.name.padEnd(12)} ${run.rps.toFixed(0).padStart(6)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  cpu ${run.cpuMs.toFixed(2)} ms/req (postgres ${run.pgCpuMs.toFixed(2)}, autocannon ${run.driverCpuMs.toFixed(2)})${run.bad ? `  (${run.bad} not ${s.status})` : ''}\n`,
      );
    }
  }
  return r;
}

/** The service as package.json's start script runs it (BENCH_NODE_FLAGS replaces the flags), limits out of reach. */
function startService(name: string, o: { url: string; cursorSecret: string; payoutKey: string; redisUrl?: string }): Promise<Child> {
  return startBuiltService(name, {
    DATABASE_URL: o.url,
    ...(o.redisUrl ? { REDIS_URL: o.redisUrl, RATE_LIMIT_REDIS_PREFIX: `bench-floor-${randomUUID().slice(0, 8)}` } : {}),
    CURSOR_SECRET: o.cursorSecret,
    PAYOUT_ENCRYPTION_KEY: o.payoutKey,
  });
}

/** The Redis URL when a PING there answers within a second. */
async function reachableRedis(redisUrl: string): Promise<string | undefined> {
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG' ? redisUrl : undefined;
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/** The ratio judged: the median of the rounds' own ratios (a over b in the same round). */
function roundRatio(a: Run[] | undefined, b: Run[] | undefined): number | undefined {
  if (!a?.length || !b?.length) return undefined;
  return median(a.map((run, i) => (b[i] && b[i]!.rps > 0 ? run.rps / b[i]!.rps : 0)));
}

// 4. The table.
function printTable(scenarios: Scenario[], results: Record<string, SideRuns>, perRequest: Record<string, number>) {
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const failures: string[] = [];
  const rows: string[][] = [['scenario', 'side', 'req/s', 'p50', 'p99', 'of replay floor (min)', 'of minimal floor (min)', 'statements/req (max)', 'RSS MB (max 200)']];
  for (const s of scenarios) {
    const r = results[s.key]!;
    const floorRuns = r.floor;
    const minimalRuns = r.minimal;
    for (const side of Object.keys(r).filter((k) => k !== 'rss')) {
      const runs = r[side]!;
      const c = combine(runs);
      const isService = side === 'service' || side === 'redis';
      let replay = '';
      let minimal = '';
      if (isService && s.sessionOf) {
        // A session's read against the key's read of the same side in the same rounds.
        const ratio = roundRatio(runs, r[`${side}, key`]);
        if (ratio !== undefined) {
          const ok = ratio >= s.floor;
          if (!ok) failures.push(`${s.key} ${side} of keyed`);
          replay = `${ratio.toFixed(2)} of keyed (${s.floor.toFixed(2)}) ${verdict(ok)}`;
        }
      } else if (isService) {
        const rf = roundRatio(runs, floorRuns);
        if (rf !== undefined && side === 'service') {
          const ok = rf >= s.floor;
          if (!ok) failures.push(`${s.key} replay ratio`);
          replay = `${rf.toFixed(2)} (${s.floor.toFixed(2)}) ${verdict(ok)}`;
        } else if (rf !== undefined) replay = rf.toFixed(2);
        const rm = roundRatio(runs, minimalRuns);
        if (rm !== undefined) {
          const ok = rm >= s.minimal;
          if (!ok) failures.push(`${s.key} ${side} minimal ratio`);
          minimal = `${rm.toFixed(2)} (${s.minimal.toFixed(2)}) ${verdict(ok)}`;
        }
      }
      let statements = '';
      let rss = '';
      if (side === 'service') {
        const okStatements = perRequest[s.key]! <= s.statements;
        const okRss = r.rss > 0 && r.rss < 200;
        if (!okStatements) failures.push(`${s.key} statements`);
        if (!okRss) failures.push(`${s.key} RSS`);
        statements = `${perRequest[s.key]!.toFixed(1)} (${s.statements}) ${verdict(okStatements)}`;
        rss = `${r.rss.toFixed(0)} ${verdict(okRss)}`;
      }
      rows.push([s.label, side, c.rps.toFixed(0), `${c.p50}`, `${c.p99}`, replay, minimal, statements, rss]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const out = rows.map((row) => row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  out.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  process.stdout.write(`\n${out.join('\n')}\n`);
  process.stdout.write(
    `\nSides: service (PostgreSQL alone), redis (the service with REDIS_URL), floor (replays the service's own statements), minimal (bench/minimal-floor-server.ts). req/s: total over the rounds; p50/p99 in ms: the median of the rounds' figures. Ratios: the median of the rounds' own ratios (a side's req/s over the floor's in the same round); the session's read over the same side's keyed read in the same rounds. Statements: mean of warm requests (after the first ${coldRequests} of ${countRequests}), counted in process through the driver's debug hook (begin/commit included).\n`,
  );
  process.stdout.write(failures.length ? `\nSUMMARY: ${failures.length} FAIL (${failures.join(', ')})\n` : '\nSUMMARY: all PASS\n');
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  bad: number;
  seconds: number;
  /** CPU time of the server process per answered request, in ms. */
  cpuMs: number;
  /** PostgreSQL's CPU (every postgres process) per request over the round, in ms. */
  pgCpuMs: number;
  /** This process's CPU (autocannon) per request over the round, in ms. */
  driverCpuMs: number;
}

function combine(runs: Run[]) {
  const total = runs.reduce((x, r) => x + r.total, 0);
  const secs = runs.reduce((x, r) => x + r.seconds, 0);
  return { rps: secs > 0 ? total / secs : 0, p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)) };
}

async function drive(base: string, s: Scenario, token: string, createBody: string, duration = seconds): Promise<Run> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let seq = 0;
  const prefix = randomUUID();
  const opts: AutocannonOptions = {
    url: `${base}${s.path}`,
    connections,
    duration,
    method: s.method,
    headers: s.method === 'POST' ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(s.method === 'POST'
      ? {
          body: createBody,
          // A fresh Idempotency-Key per request: every one is a new write, none a replay.
          requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `${prefix}-${++seq}` } }) }],
        }
      : {}),
  };
  const result = await autocannon(opts);
  const ok = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => Number(code) === s.status)
    .reduce((x, [, v]) => x + v.count, 0);
  const bad = result.requests.total - ok + result.errors;
  return { rps: ok / duration, p50: result.latency.p50, p99: result.latency.p99, total: ok, bad, seconds: duration, cpuMs: 0, pgCpuMs: 0, driverCpuMs: 0 };
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
