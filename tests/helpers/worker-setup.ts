import { databaseName, perWorkerDatabases, withDatabaseName, workerDatabaseName } from './worker-database';

// Runs before each test file in its worker (see worker-database.ts): every URL of the test database
// (through the pooler, direct, PgBouncer's) names the worker's copy. The first run keeps each URL as
// the pass gave it in <name>_BASE, so the files after it (the fast project shares its worker) point
// at the same copy.
if (perWorkerDatabases) {
  const id = Number(process.env.VITEST_POOL_ID ?? '1');
  for (const name of ['TEST_DATABASE_URL', 'TEST_DATABASE_DIRECT_URL', 'TEST_PGBOUNCER_URL']) {
    const given = process.env[`${name}_BASE`] ?? process.env[name];
    if (!given) continue;
    process.env[`${name}_BASE`] = given;
    process.env[name] = withDatabaseName(given, workerDatabaseName(databaseName(given), id));
  }
}
