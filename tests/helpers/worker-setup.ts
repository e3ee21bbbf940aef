import { databaseName, perWorkerDatabases, withDatabaseName, workerDatabaseName } from './worker-database';

// Runs before each test file in its worker (see worker-database.ts). The first run keeps the pass's own
// URL in TEST_DATABASE_BASE_URL, so the files after it (the fast project shares its worker) point at
// the same copy.
if (perWorkerDatabases) {
  const base = (process.env.TEST_DATABASE_BASE_URL ??= process.env.TEST_DATABASE_URL!);
  const id = Number(process.env.VITEST_POOL_ID ?? '1');
  process.env.TEST_DATABASE_URL = withDatabaseName(base, workerDatabaseName(databaseName(base), id));
}
