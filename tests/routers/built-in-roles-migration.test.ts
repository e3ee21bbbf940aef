import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { BUILT_IN_ROLES } from '../../src/domain/permissions';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

/**
 * drizzle/0006_built-in-role-permissions.sql: the built-in roles of organizations created before the
 * set-up operations existed gain the permissions the built-in roles carry now, so an accountant of an
 * old organization can manage reference data the day the release lands. Only additions: a permission
 * an organization gave a built-in role is kept.
 */

const t = useTestApp();
/** Given to the built-in roles by later migrations (0033_webhook-events.sql, 0037_journal-export.sql), not by this one. */
const ADDED_LATER = new Set(['organization.events.read', 'organization.webhooks.manage', 'receivables.journal.export']);
const statements = readFileSync(new URL('../../drizzle/0006_built-in-role-permissions.sql', import.meta.url), 'utf8')
  .split('--> statement-breakpoint')
  .map((s) => s.trim())
  .filter(Boolean);

describe('the built-in role permissions migration', () => {
  it('adds the new permissions to the old built-in roles, keeps extra ones, and changes nothing on a second run', async () => {
    const org = await createTestOrganization(t.db);
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    // The roles as an organization created before had them: without the set-up permissions, and one
    // role carrying something extra.
    await t.db.execute(sql.raw(`update roles set permissions = array['receivables.invoice.read','receivables.invoice.create'] where organization_id = '${org.id}' and key = 'accountant'`));
    await t.db.execute(sql.raw(`update roles set permissions = array['receivables.invoice.read','documents.create'] where organization_id = '${org.id}' and key = 'viewer'`));
    const client = createInProcessClient(t.deps, { token: accountant.session });
    const before = await client.settings.accounts.list({}).catch((e) => e);
    expect(before.appCode).toBe('forbidden');

    for (const s of statements) await t.db.execute(sql.raw(s));
    const read = async () =>
      (await t.db.execute(sql.raw(`select key, permissions from roles where organization_id = '${org.id}' order by key`))) as unknown as
        | { rows: { key: string; permissions: string[] }[] }
        | { key: string; permissions: string[] }[];
    const rowsOf = (r: Awaited<ReturnType<typeof read>>) => (Array.isArray(r) ? r : r.rows);
    const after = rowsOf(await read());
    for (const row of after) {
      const builtIn = BUILT_IN_ROLES[row.key as keyof typeof BUILT_IN_ROLES];
      if (builtIn) expect(row.permissions).toEqual(expect.arrayContaining(builtIn.permissions.filter((p) => !ADDED_LATER.has(p))));
    }
    // The viewer keeps documents.create, which the organization had given it.
    expect(after.find((r) => r.key === 'viewer')!.permissions).toContain('documents.create');
    expect((await client.settings.accounts.list({})).items.length).toBeGreaterThan(0);

    for (const s of statements) await t.db.execute(sql.raw(s));
    expect(rowsOf(await read())).toEqual(after);
  });
});
