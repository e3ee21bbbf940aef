/**
 * The fault test (`.ci/run`, after the PostgreSQL pass): three server processes on one fresh
 * PostgreSQL database, FAULT_SECONDS (30) of mixed keyed creates (invoices of 1 to 5 lines, claims)
 * and reads; meanwhile the database terminates every connection of the service three times and one
 * process is killed with SIGKILL. Then: the surviving processes still serve; every answered
 * Idempotency-Key replays its first answer (status, body, `Idempotent-Replayed: true`); no partial
 * document (every invoice has all its lines, and totals that match them); claim numbers gapless.
 * Prints one summary line and exits 1 on any violation.
 *
 *   FAULT_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tests/fault/fault.ts
 *
 * FAULT_DATABASE_URL names a server (its database is only used to create and drop the fresh one).
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase } from '../../src/db/client';
import { createTestCustomer } from '../factories/customer';
import { createTestOrganization } from '../factories/organization';
import { createReceivablesSetup } from '../factories/receivables';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const SECONDS = Number(process.env.FAULT_SECONDS ?? 30);
const WORKERS = Number(process.env.FAULT_WORKERS ?? 6);
const serverUrl = process.env.FAULT_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function withDatabase(url: string, database: string, applicationName?: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  if (applicationName) u.searchParams.set('application_name', applicationName);
  return u.toString();
}

interface Answer {
  status: number;
  body: string;
  replayed: boolean;
}

async function main() {
  const started = Date.now();
  const violations: string[] = [];
  const database = `fault_${Date.now()}_${process.pid}`;
  const appName = `finance-api-fault-${randomUUID().slice(0, 8)}`;
  const admin = postgres(withDatabase(serverUrl, 'postgres'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${database}"`);
  const url = withDatabase(serverUrl, database, appName);
  const servers: ServerProcess[] = [];
  let handle: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    // Three replicas at once on the empty database (migrations under the advisory lock).
    const env = { DATABASE_URL: url, DATABASE_POOL_SIZE: '4', RATE_LIMIT_PER_KEY: '1000000', RATE_LIMIT_PER_ORGANIZATION: '1000000' };
    servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env), startServerProcess(env)])));
    handle = await openDatabase({ url: withDatabase(serverUrl, database, `${appName}-checker`), poolSize: 2 });
    const db = handle.db;
    const org = await createTestOrganization(db);
    const ref = await createReceivablesSetup(db, org.id);
    const customer = await createTestCustomer(db, org.id);
    const token = org.owner.apiKey;

    const live = new Set(servers);
    const firstAnswers = new Map<string, { url: string; body: string; answer: Answer }>();
    const invoiceIds: string[] = [];
    const claimIds: string[] = [];
    let requests = 0;
    let failures = 0;
    const statuses = new Map<string, number>();
    let sample = '';
    const send = async (server: ServerProcess, method: string, path: string, body?: string, key?: string): Promise<Answer | undefined> => {
      requests++;
      try {
        const res = await fetch(`${server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...(key ? { 'idempotency-key': key } : {}) },
          body,
          signal: AbortSignal.timeout(15_000),
        });
        const answer = { status: res.status, body: await res.text(), replayed: res.headers.get('idempotent-replayed') === 'true' };
        statuses.set(`${method} ${answer.status}`, (statuses.get(`${method} ${answer.status}`) ?? 0) + 1);
        if (answer.status >= 400 && answer.status < 500 && !sample) sample = answer.body.slice(0, 300);
        return answer;
      } catch {
        failures++;
        return undefined;
      }
    };
    const pick = () => [...live][Math.floor(Math.random() * live.size)]!;
    const invoiceBody = (lines: number) =>
      JSON.stringify({
        kind: 'sales_invoice',
        customer_id: customer.id,
        customer_reference: `F-${randomUUID().slice(0, 8)}`,
        lines: Array.from({ length: lines }, (_, i) => ({ account_id: ref.revenue.id, description: `Item ${i + 1}`, quantity: String(i + 1), unit_price: '12.35', tax_code_id: ref.sv8.id })),
      });

    let stop = false;
    const worker = async () => {
      while (!stop) {
        const server = pick();
        const roll = Math.random();
        if (roll < 0.45) {
          const key = randomUUID();
          const body = invoiceBody(1 + Math.floor(Math.random() * 5));
          const a = await send(server, 'POST', '/v1/receivables/invoices', body, key);
          if (a?.status === 201) {
            firstAnswers.set(key, { url: '/v1/receivables/invoices', body, answer: a });
            invoiceIds.push((JSON.parse(a.body) as { id: string }).id);
          }
        } else if (roll < 0.7) {
          const key = randomUUID();
          const body = JSON.stringify({ title: `Trip ${key.slice(0, 6)}` });
          const a = await send(server, 'POST', '/v1/expenses/claims', body, key);
          if (a?.status === 201) {
            firstAnswers.set(key, { url: '/v1/expenses/claims', body, answer: a });
            claimIds.push((JSON.parse(a.body) as { claim: { id: string } }).claim.id);
          }
        } else if (invoiceIds.length) {
          const id = invoiceIds[Math.floor(Math.random() * invoiceIds.length)]!;
          const a = await send(server, 'GET', `/v1/receivables/invoices/${id}`);
          if (a && a.status !== 200 && a.status < 500) violations.push(`GET invoice ${id}: ${a.status}`);
        } else await sleep(10);
      }
    };
    const workers = Array.from({ length: WORKERS }, worker);

    // The faults: three resets of every connection of the service, and one process killed.
    let terminated = 0;
    const t0 = Date.now();
    const wait = (fraction: number) => sleep(Math.max(0, t0 + fraction * SECONDS * 1000 - Date.now()));
    for (const [i, fraction] of [0.2, 0.45, 0.7].entries()) {
      await wait(fraction);
      const rows = await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${database} and application_name = ${appName}`;
      terminated += rows.length;
      if (i === 1) {
        const victim = servers[2]!;
        live.delete(victim);
        victim.child.kill('SIGKILL');
      }
    }
    await wait(1);
    stop = true;
    await Promise.all(workers);

    if (firstAnswers.size === 0) violations.push(`no keyed create was answered 201 (${JSON.stringify(Object.fromEntries(statuses))}; ${sample}; ${servers[0]!.output().slice(0, 1500)})`);
    // The survivors keep serving.
    for (const s of live) {
      if (s.child.exitCode !== null || s.child.signalCode !== null) violations.push(`a surviving process exited (${s.child.exitCode ?? s.child.signalCode}): ${s.output().slice(-800)}`);
      const ready = await fetch(`${s.url}/readyz`).then((r) => r.status).catch(() => 0);
      if (ready !== 200) violations.push(`/readyz on a survivor answered ${ready}`);
    }
    // Every answered key replays its first answer.
    let replayed = 0;
    for (const [key, first] of firstAnswers) {
      const a = await send(pick(), 'POST', first.url, first.body, key);
      if (!a || a.status !== first.answer.status || a.body !== first.answer.body || !a.replayed) violations.push(`key ${key}: replay ${a?.status} replayed=${a?.replayed}`);
      else replayed++;
    }
    // No partial document: every invoice with lines, totals equal to its lines'.
    const check = postgres(withDatabase(serverUrl, database, `${appName}-checker`), { max: 1, onnotice: () => {} });
    const bad: { id: string }[] = await check.unsafe(
      `select d.id from receivable_documents d left join receivable_document_lines l on l.organization_id = d.organization_id and l.document_id = d.id
        where d.organization_id = $1 group by d.id, d.net_total, d.tax_total, d.gross_amount
       having count(l.id) = 0 or d.net_total <> sum(l.net_amount) or d.tax_total <> sum(l.tax_amount) or d.gross_amount <> d.net_total + d.tax_total`,
      [org.id],
    );
    for (const row of bad) violations.push(`partial or inconsistent document ${row.id}`);
    const [docs] = (await check.unsafe(`select count(*)::int as n from receivable_documents where organization_id = $1`, [org.id])) as unknown as [{ n: number }];
    const invoicesAnswered = new Set(invoiceIds).size;
    if (docs.n < invoicesAnswered) violations.push(`${invoicesAnswered} invoices answered 201 but ${docs.n} stored`);
    // Claim numbers: 1..n with no gap and no repeat.
    const refs = (await check.unsafe(`select reference from claims where organization_id = $1`, [org.id])) as unknown as { reference: string }[];
    const numbers = refs.map((r) => Number(/(\d+)$/.exec(r.reference)?.[1])).sort((a, b) => a - b);
    numbers.forEach((n, i) => {
      if (n !== i + 1) violations.push(`claim numbers not gapless at position ${i + 1}: ${n}`);
    });
    await check.end({ timeout: 5 });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(
      `fault: ${requests} requests, ${firstAnswers.size} keyed creates answered (${invoicesAnswered} invoices, ${claimIds.length} claims), ${replayed} replayed, ` +
        `${terminated} connections terminated in 3 resets, 1 process killed, ${failures} requests without answer, answers ${JSON.stringify(Object.fromEntries(statuses))}, ${violations.length} violations, ${seconds} s`,
    );
    for (const v of violations.slice(0, 20)) console.log(`  violation: ${v}`);
  } finally {
    await handle?.close().catch(() => {});
    await Promise.all(servers.map((s) => s.stop().catch(() => {})));
    await admin.unsafe(`drop database if exists "${database}" with (force)`).catch(() => {});
    await admin.end({ timeout: 5 });
  }
  process.exit(violations.length ? 1 : 0);
}

main().catch((e) => {
  console.log(`fault: the test could not run: ${e instanceof Error ? e.stack : String(e)}`);
  process.exit(1);
});
