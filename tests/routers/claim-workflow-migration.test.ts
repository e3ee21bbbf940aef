import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { CLAIM_WORKFLOW_BEFORE_BANK_DIFFERENCE, DEFAULT_EXPENSE_CLAIM_WORKFLOW } from '../../src/services/workflow/defaults';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

/**
 * drizzle/0029_claim-bank-difference.sql: organizations whose stored claim workflow is still the
 * previous default (issue 11's, as 0013 left it) get the `difference` state with refer_difference,
 * approve and decline_difference; a workflow an organization changed is left alone; a second run
 * changes nothing.
 */
const t = useTestApp();
const statementsOf = (file: string) =>
  readFileSync(new URL(`../../drizzle/${file}`, import.meta.url), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
const statements = statementsOf('0029_claim-bank-difference.sql');

const stored = async (orgId: string) =>
  (await queryRows<{ definition: unknown }>(t.db, sql`select definition from workflows where organization_id = ${orgId} and record_type = 'expense_claim'`))[0]!.definition;
const setStored = (orgId: string, def: unknown) =>
  t.db.execute(sql`update workflows set definition = ${JSON.stringify(def)}::jsonb where organization_id = ${orgId} and record_type = 'expense_claim'`);

describe('the claim workflow data migration for bank differences', () => {
  it('upgrades the previous default (the one 0013 stored), keeps a changed one, and is idempotent', async () => {
    const fresh = await createTestOrganization(t.db);
    expect(await stored(fresh.id)).toEqual(DEFAULT_EXPENSE_CLAIM_WORKFLOW);
    const old = await createTestOrganization(t.db);
    // The definition 0013 wrote, as it wrote it: the last statement's new value.
    const from0013 = statementsOf('0013_claim-workflow.sql').at(-1)!.match(/SET "definition" = '(.*?)'::jsonb/s)![1]!.replace(/''/g, "'");
    expect(JSON.parse(from0013)).toEqual(CLAIM_WORKFLOW_BEFORE_BANK_DIFFERENCE);
    await setStored(old.id, JSON.parse(from0013));
    const custom = await createTestOrganization(t.db);
    const changed = { ...CLAIM_WORKFLOW_BEFORE_BANK_DIFFERENCE, states: CLAIM_WORKFLOW_BEFORE_BANK_DIFFERENCE.states.map((s) => (s.key === 'draft' ? { ...s, labels: { en: 'Working copy' } } : s)) };
    await setStored(custom.id, changed);

    for (let run = 0; run < 2; run += 1) {
      for (const s of statements) await t.db.execute(sql.raw(s));
      expect(await stored(old.id)).toEqual(DEFAULT_EXPENSE_CLAIM_WORKFLOW);
      expect(await stored(custom.id)).toEqual(changed);
      expect(await stored(fresh.id)).toEqual(DEFAULT_EXPENSE_CLAIM_WORKFLOW);
    }
  });
});
