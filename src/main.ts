import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig, payoutEncryptionKey } from './config';
import { loggerOptions } from './lib/logging';
import { startInProcessSimulator } from './services/einvoicing/in-process-simulator';
import { openDatabase } from './db/client';
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
    ? await startInProcessSimulator({ db: handle.db, port: config.MYINVOIS_SIMULATOR_PORT, myinvois: { key: payoutEncryptionKey(config), timeoutMs: config.MYINVOIS_TIMEOUT_MS }, log })
    : undefined;
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
  const shutdown = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    await jobs?.stop();
    await app.close();
    await simulator?.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

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
  } else {
    lines.push(`  Existing database: the demo ids and credentials are in ${join(config.DATA_DIR, 'demo.json')} when it was seeded here; admin commands (npm run admin) need the server stopped on the embedded database`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
