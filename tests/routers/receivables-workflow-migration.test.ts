import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW, PREVIOUS_RECEIVABLE_DOCUMENT_WORKFLOW, RECEIVABLE_WORKFLOW_BEFORE_EINVOICING } from '../../src/services/workflow/defaults';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

/**
 * drizzle/0007_receivables-workflow.sql and 0019_receivables-einvoicing-workflow.sql: organizations created
 * before dispute, resolve and cancel (then e-invoicing's states) existed get them when their stored receivables workflow is still the previous default; a workflow
 * an organization changed is left alone; a second run changes nothing.
 */
const t = useTestApp();
const statementsOf = (file: string) =>
  readFileSync(new URL(`../../drizzle/${file}`, import.meta.url), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
// 0007 brings the first default to the issue-10 one; 0019 brings that one to the e-invoicing default.
const statements = [...statementsOf('0007_receivables-workflow.sql'), ...statementsOf('0019_receivables-einvoicing-workflow.sql')];

const stored = async (orgId: string) =>
  (await queryRows<{ definition: unknown }>(t.db, sql`select definition from workflows where organization_id = ${orgId} and record_type = 'receivable_document'`))[0]!.definition;
const setStored = (orgId: string, def: unknown) =>
  t.db.execute(sql`update workflows set definition = ${JSON.stringify(def)}::jsonb where organization_id = ${orgId} and record_type = 'receivable_document'`);

describe('the receivables workflow data migration', () => {
  it('upgrades the previous default, keeps a changed one, and is idempotent', async () => {
    const fresh = await createTestOrganization(t.db);
    expect(await stored(fresh.id)).toEqual(DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW);

    const old = await createTestOrganization(t.db);
    await setStored(old.id, PREVIOUS_RECEIVABLE_DOCUMENT_WORKFLOW);
    const custom = await createTestOrganization(t.db);
    const changed = { ...PREVIOUS_RECEIVABLE_DOCUMENT_WORKFLOW, states: PREVIOUS_RECEIVABLE_DOCUMENT_WORKFLOW.states.map((s) => (s.key === 'draft' ? { ...s, labels: { en: 'Working copy' } } : s)) };
    await setStored(custom.id, changed);

    for (const s of statements) await t.db.execute(sql.raw(s));
    expect(await stored(old.id)).toEqual(DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW);
    expect(await stored(custom.id)).toEqual(changed);
    expect(await stored(fresh.id)).toEqual(DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW);

    for (const s of statements) await t.db.execute(sql.raw(s));
    expect(await stored(old.id)).toEqual(DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW);
    expect(await stored(custom.id)).toEqual(changed);

    // An organization on the issue-10 workflow gets e-invoicing's states.
    const issue10 = await createTestOrganization(t.db);
    await setStored(issue10.id, RECEIVABLE_WORKFLOW_BEFORE_EINVOICING);
    for (const s of statements) await t.db.execute(sql.raw(s));
    expect(await stored(issue10.id)).toEqual(DEFAULT_RECEIVABLE_DOCUMENT_WORKFLOW);
  });
});
