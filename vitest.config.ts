import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { TEST_WORKERS } from './tests/helpers/worker-database';

/**
 * Three projects, all run by `npm test` (and so by CI):
 * - `slow`: the files that start processes (the admin CLI, the build, server processes), seed the whole
 *   demo, fuzz for a minute or drive a browser, each tens of seconds; and the files that need a process
 *   of their own (below). Each file runs in a fresh process, as every file used to.
 * - `fast`: everything else but SERIAL; `npm run test:fast` runs only these, the inner loop.
 * - `serial`: the query-plan and database-fault tests, one at a time once the others are done
 *   (PostgreSQL only; they skip on the embedded database).
 *
 * The fast files share their worker's module cache (`isolate: false`): the server and its routers are
 * imported once per worker, not once per file (1.5–2.5 s each). Every file still opens its own
 * database (`useTestApp`) and closes it afterwards, and no test changes module state another file
 * reads; a file that reads the process's own state goes in SLOW.
 */
export const SLOW = [
  'tests/cli/**/*.test.ts',
  'tests/fuzz/**/*.test.ts',
  'tests/http/demo.test.ts',
  'tests/http/demo-receivables.test.ts',
  'tests/routers/demo-claims.test.ts',
  'tests/acceptance/demo-einvoicing.test.ts',
  'tests/http/docs-page-browser.test.ts',
  // The console's browser journeys: each file starts a server with the demo and drives Chromium.
  'tests/console/**/*.test.ts',
  // Counts the statements this process has prepared (src/db/client.ts keeps the first 1,000 texts).
  'tests/concurrency/statement-shapes.test.ts',
  // Starts server processes that deliver webhooks, and kills one.
  'tests/concurrency/webhook-processes.test.ts',
];

/** The browser journeys (tests/console/harness.ts starts each file's server on the embedded database). */
const CONSOLE_ONLY_EMBEDDED = ['tests/console/**/*.test.ts'];

/**
 * The slow project's files first (longest first, as the last run timed them), then the rest: a
 * minute-long file started last would leave the other worker idle at the end.
 */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => f.project.name === 'slow'), ...sorted.filter((f) => f.project.name !== 'slow')];
  }
}

/**
 * PostgreSQL files that need the machine and the database to themselves, as when the suite ran one
 * file at a time: the plan tests load 150,000 rows, analyze and read the planner's choice (another
 * file's writes at the same moment change the statistics it plans from); the fault test starts server
 * processes and terminates their connections under a stream of requests, against a time limit.
 */
export const SERIAL = ['tests/concurrency/customer-list-plans.test.ts', 'tests/concurrency/list-plans.test.ts', 'tests/concurrency/database-faults.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['tests/helpers/global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine. The files
    // spend much of their time waiting (password hashing off the main thread, child processes, the
    // database), so a worker per core, on PostgreSQL each on a copy of the test database of its own
    // (tests/helpers/worker-database.ts: the job table is the database's).
    maxWorkers: TEST_WORKERS,
    setupFiles: ['tests/helpers/worker-setup.ts'],
    sequence: { sequencer: SlowFirst },
    // Seeding the whole demo takes 25–30 s on 2 loaded cores; 30 s made those tests flaky.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // Concurrency tests need PostgreSQL; they skip themselves on the embedded database.
    projects: [
      { extends: true, test: { name: 'fast', include: ['tests/**/*.test.ts'], exclude: [...SLOW, ...SERIAL], isolate: false } },
      // The console's journeys start their own server on a fresh embedded database whatever
      // TEST_DATABASE_URL says: the PostgreSQL pass would run the same journeys again, so they run in
      // the embedded pass only.
      { extends: true, test: { name: 'slow', include: SLOW, exclude: process.env.TEST_DATABASE_URL ? CONSOLE_ONLY_EMBEDDED : [], isolate: true } },
      { extends: true, test: { name: 'serial', include: SERIAL, isolate: true, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
