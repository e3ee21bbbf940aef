import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

const t = useTestApp();

describe('secrets at rest', () => {
  it('the keys and sessions tables hold only SHA-256 hashes, never a token or secret', async () => {
    const org = await createTestOrganization(t.db);
    const secret = org.owner.apiKey.split('_').slice(2).join('_');
    const keys = await queryRows<Record<string, unknown>>(t.db, sql`select * from api_keys where organization_id = ${org.id}`);
    const sessions = await queryRows<Record<string, unknown>>(t.db, sql`select * from sessions where organization_id = ${org.id}`);
    expect(keys).toHaveLength(1);
    expect(sessions).toHaveLength(1);
    const everything = JSON.stringify([keys, sessions]);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(org.owner.session);
    expect(keys[0]!.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(sessions[0]!.token_hash).toBe(createHash('sha256').update(org.owner.session).digest('hex'));
  });
});
