import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import closeWithGrace from 'close-with-grace';
import { pino } from 'pino';
import { loadConfig, payoutEncryptionKey } from './config';
import { loggerOptions } from './lib/logging';
import { intermediaryOf, outboundOf } from './services/einvoicing/build-client';
import { startInProcessSimulator } from './services/einvoicing/in-process-simulator';
import { databaseOptions, openDatabase } from './db/client';
import { startupFailureMessage } from './db/connection-errors';
import { isLostConnection } from './db/errors';
import type { AppDeps } from './deps';
import { isDatabaseEmpty } from './db/queries/bootstrap';
import { demoLoginLines, readDemoOrganization } from './demo/logins';
import { seedDemo } from './demo/seed-demo';
import { backfillJournal } from './services/journal/backfill';
import { startJobRunner } from './jobs/start-jobs';
import { publicBaseUrl } from './jobs/standard-jobs';
import { mailTransportOf } from './integrations/mail';
import { createRateLimits } from './services/rate-limit/limits';
import { buildServer } from './server';

async function main() {
  const config = loadConfig();
  const log = pino(loggerOptions(config.LOG_LEVEL));
  const handle = await openDatabase({ ...databaseOptions(config), poolSize: config.DATABASE_POOL_SIZE });
  await handle.migrate();
  // Journal entries of records written before the journal existed (idempotent; see services/journal/backfill.ts).
  const journal = await backfillJournal(handle.db);
  if (journal.written > 0) log.info({ written: journal.written }, 'journal entries written for existing records');
  for (const s of journal.skipped) log.warn(s, 'journal backfill skipped an organization: set its journal accounts and restart');
  const deps: AppDeps = {
    db: handle.db,
    dbKind: handle.kind,
    config,
    log,
    now: () => new Date(),
    rateLimits: createRateLimits(config, handle.kind, handle.db, log),
  };
  // The MyInvois simulator in the process: e-invoicing works offline, with no account at LHDN.
  const simulate = config.MYINVOIS_SIMULATOR === 'on' || (config.MYINVOIS_SIMULATOR === 'auto' && handle.kind === 'pglite');
  const simulator = simulate
    ? await startInProcessSimulator({ db: handle.db, port: config.MYINVOIS_SIMULATOR_PORT, myinvois: { key: payoutEncryptionKey(config), timeoutMs: config.MYINVOIS_TIMEOUT_MS, outbound: outboundOf(deps), intermediary: intermediaryOf(config) }, log })
    : undefined;
  // Outbound requests may reach the operator's networks and, once started, the simulator of this process.
  deps.outbound = simulator?.outbound ?? outboundOf(deps);
  let demo: { key?: string; customer?: string; logins: string[]; file?: string } | undefined;
  const seed = config.SEED_DEMO ?? (handle.kind === 'pglite' ? 'true' : 'false');
  if (seed === 'true' && (await isDatabaseEmpty(handle.db))) {
    const data = await seedDemo(deps, new Date(), simulator ? { einvoicing: simulator.demo } : {});
    const org = data.organizations[0];
    const owner = org?.members.find((m) => m.role === 'owner');
    demo = { key: owner?.api_key ?? undefined, customer: org?.customers[0]?.id, logins: org ? demoLoginLines(org) : [] };
    if (handle.kind === 'pglite') {
      // Every id and credential of the sandbox, readable by its owner only, beside the database it belongs to.
      demo.file = join(config.DATA_DIR, 'demo.json');
      writeFileSync(demo.file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    }
    log.info('seeded the demo data set');
  }

  const app = await buildServer(deps, { logger: true });
  // Background jobs (purges, ...) from the job table; drained before the database closes.
  // E-mail leaves through the job table: SMTP_URL, else .eml files on the embedded database.
  const mail = mailTransportOf(config);
  const jobs = startJobRunner({ ...deps, mail });
  // SIGTERM/SIGINT (or a crash): /readyz answers 503 at once, the process keeps serving for
  // SHUTDOWN_DELAY_MS (a load balancer stops sending), then stops accepting connections, lets the
  // requests in flight and the jobs finish, and closes the database; past SHUTDOWN_GRACE_MS more it
  // exits anyway with code 1 (a second signal exits at once).
  const shutdown = closeWithGrace(
    {
      delay: config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_GRACE_MS,
      // Unhandled rejections are sorted below first.
      skip: ['unhandledRejection'],
      logger: { error: (message: unknown) => log.error(String(message)) },
      onTimeout: (delay) => log.error({ delayMs: delay }, 'drain time limit reached (SHUTDOWN_GRACE_MS): exiting with requests or jobs unfinished'),
    },
    async ({ signal, err }) => {
      if (err) log.error({ err }, 'shutting down after an unexpected error');
      log.info({ signal }, 'shutting down: draining');
      app.startDraining();
      if (config.SHUTDOWN_DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      await Promise.all([jobs?.stop(), app.close()]);
      await simulator?.close();
      mail.close();
      await handle.close();
      log.info('drained');
    },
  );

  // postgres.js reads the array types on each new connection with a query no caller awaits
  // (fetchArrayTypes in its connection.js): a backend ended while that query runs rejects it with
  // nobody to catch it. Such a lost connection is the pool's to replace, not a reason to stop; any
  // other unhandled rejection shuts the process down as an uncaught exception does.
  process.on('unhandledRejection', (reason) => {
    if (isLostConnection(reason)) {
      log.warn({ err: reason }, 'a database connection was lost outside any request; the pool opens another');
      return;
    }
    log.error({ err: reason }, 'shutting down after an unexpected error');
    process.exitCode = 1;
    void shutdown.close();
  });

  await app.listen({ port: config.PORT, host: config.HOST });
  const base = publicBaseUrl(config);
  const lines = [
    '',
    `  Finance API listening on ${base}  (database: ${handle.kind}${handle.kind === 'pglite' ? ` in ${config.DATA_DIR}` : ''})`,
    `  REST:     ${base}/v1   OpenAPI: ${base}/v1/openapi.json`,
    `  Docs:     ${base}/docs`,
    `  Console:  ${base}/`,
    `  ${mail.description}`,
  ];
  if (simulator) lines.push(`  MyInvois simulator (in process, e-invoicing environment "simulator"): ${simulator.url}`);
  if (demo?.key) {
    lines.push(`  Demo API key (owner of Acme Trading Sdn Bhd): ${demo.key}`);
    lines.push(...demo.logins);
    lines.push(`  Try:      curl -H "Authorization: Bearer ${demo.key}" ${base}/v1/receivables/customers/${demo.customer}`);
    if (demo.file) lines.push(`  Every demo id and credential (members of each role with e-mail and password, customers, accounts, tax codes, ...): ${demo.file}`);
  } else if (handle.kind === 'postgres') {
    lines.push('  Nothing seeded on PostgreSQL (SEED_DEMO=true seeds the demo on an empty database); create an organization with: npm run admin -- org create --help');
  } else {
    const file = join(config.DATA_DIR, 'demo.json');
    const earlier = readDemoOrganization(file);
    if (earlier) lines.push(...demoLoginLines(earlier));
    lines.push(`  Existing database: the demo ids and credentials are in ${file} when it was seeded here; admin commands (npm run admin) need the server stopped on the embedded database`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

/**
 * Without DATABASE_URL the service falls back on the embedded database, a development dependency
 * the image does not install: say so, rather than "Cannot find package".
 */
function embeddedDatabaseMissing(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('@electric-sql/pglite')) return undefined;
  return 'DATABASE_URL is not set, and the embedded database (@electric-sql/pglite, a development dependency) is not installed here: set DATABASE_URL to a PostgreSQL URL (postgres://user:password@host:5432/database)';
}

main().catch((err) => {
  process.stderr.write(`${embeddedDatabaseMissing(err) ?? startupFailureMessage(err)}\n`);
  process.exit(1);
});
