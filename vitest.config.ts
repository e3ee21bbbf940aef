import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    pool: 'forks',
    // Seeding the whole demo takes 25–30 s on 2 loaded cores; 30 s made those tests flaky.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // Concurrency tests need PostgreSQL; they skip themselves on the embedded database.
  },
});
