import { openDatabase } from '../../src/db/client';

/** On PostgreSQL, apply the migrations once before any worker starts. */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const handle = await openDatabase({ url, poolSize: 1 });
  try {
    await handle.migrate();
  } finally {
    await handle.close();
  }
}
