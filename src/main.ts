import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import closeWithGrace from 'close-with-grace';
import { pino } from 'pino';
import { loadConfig, payoutEncryptionKey } from './config';
import { loggerOptions } from './lib/logging';
import { outboundOf } from './services/einvoicing/build-client';
import { startInProcessSimulator } from './services/einvoicing/in-process-simulator';
import { openDatabase } from './db/client';
import { startupFailureMessage } from './db/connection-errors';
import type { AppDeps } from './deps';
import { isDatabaseEmpty } from './db/queries/bootstrap';
import { seedDemo } from './demo/seed-demo';
import { startJobRunner } from './jobs/start-jobs';
import { createRateLimits } from './services/rate-limit/limits';
import { buildServer } from './server';
import './services/register';

async function main() {
  const config = loadConfig();
  const log = pino(loggerOptions(config.LOG_LEVEL));
  const handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: config.DATABASE_POOL_SIZE });
  await handle.migrate();
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
    ? await startInProcessSimulator({ db: handle.db, port: config.MYINVOIS_SIMULATOR_PORT, myinvois: { key: payoutEncryptionKey(config), timeoutMs: config.MYINVOIS_TIMEOUT_MS, outbound: outboundOf(deps) }, log })
    : undefined;
  // Outbound requests may reach the operator's networks and, once started, the simulator of this process.
  deps.outbound = simulator?.outbound ?? outboundOf(deps);
  let demo: { key?: string; customer?: string; owner?: { email: string; password: string }; file?: string } | undefined;
  const seed = config.SEED_DEMO ?? (handle.kind === 'pglite' ? 'true' : 'false');
  if (seed === 'true' && (await isDatabaseEmpty(handle.db))) {
    const data = await seedDemo(deps, new Date(), simulator ? { einvoicing: simulator.demo } : {});
    const org = data.organizations[0];
    const owner = org?.members.find((m) => m.role === 'owner');
    demo = { key: owner?.api_key ?? undefined, customer: org?.customers[0]?.id, owner: owner && { email: owner.email, password: owner.password } };
    if (handle.kind === 'pglite') {
      // Every id and credential of the sandbox, readable by its owner only, beside the database it belongs to.
      demo.file = join(config.DATA_DIR, 'demo.json');
      writeFileSync(demo.file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    }
    log.info('seeded the demo data set');
  }

  const app = await buildServer(deps, { logger: true });
  // Background jobs (purges, ...) from the job table; drained before the database closes.
  const jobs = startJobRunner(deps);
  // SIGTERM/SIGINT (or a crash): /readyz answers 503 at once, the process keeps serving for
  // SHUTDOWN_DELAY_MS (a load balancer stops sending), then stops accepting connections, lets the
  // requests in flight and the jobs finish, and closes the database; past SHUTDOWN_GRACE_MS more it
  // exits anyway with code 1 (a second signal exits at once).
  closeWithGrace(
    {
      delay: config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_GRACE_MS,
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
      await handle.close();
      log.info('drained');
    },
  );

  await app.listen({ port: config.PORT, host: config.HOST });
  const base = config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`;
  const lines = [
    '',
    `  Finance API listening on ${base}  (database: ${handle.kind}${handle.kind === 'pglite' ? ` in ${config.DATA_DIR}` : ''})`,
    `  REST:     ${base}/v1   OpenAPI: ${base}/v1/openapi.json`,
    `  Docs:     ${base}/docs`,
  ];
  if (simulator) lines.push(`  MyInvois simulator (in process, e-invoicing environment "simulator"): ${simulator.url}`);
  if (demo?.key) {
    lines.push(`  Demo API key (owner of Acme Trading Sdn Bhd): ${demo.key}`);
    if (demo.owner) lines.push(`  Demo login (auth.login):  ${demo.owner.email}  password ${demo.owner.password}`);
    lines.push(`  Try:      curl -H "Authorization: Bearer ${demo.key}" ${base}/v1/receivables/customers/${demo.customer}`);
    if (demo.file) lines.push(`  Every demo id and credential (members of each role with e-mail and password, customers, accounts, tax codes, ...): ${demo.file}`);
  } else if (handle.kind === 'postgres') {
    lines.push('  Nothing seeded on PostgreSQL (SEED_DEMO=true seeds the demo on an empty database); create an organization with: npm run admin -- org create --help');
  } else {
    lines.push(`  Existing database: the demo ids and credentials are in ${join(config.DATA_DIR, 'demo.json')} when it was seeded here; admin commands (npm run admin) need the server stopped on the embedded database`);
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
