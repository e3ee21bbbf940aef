import { eq } from 'drizzle-orm';
import type { Database } from '../client';
import { serverSecrets } from '../schema';

/** The stored secret of this name, created with `generate()` by whichever process asks first. */
export async function sharedSecret(db: Database, name: string, generate: () => string): Promise<string> {
  await db.insert(serverSecrets).values({ name, value: generate() }).onConflictDoNothing({ target: serverSecrets.name });
  const [row] = await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new Error(`server secret ${name} could not be stored`);
  return row.value;
}
