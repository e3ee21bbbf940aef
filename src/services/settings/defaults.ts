import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { insertAccounts, insertTaxCodes } from '../../db/queries/reference-data';
import { ACCOUNT_TYPES } from '../../domain/receivables';
import { isTaxType } from '../../lib/code-lists';
import { checkRatePlaces, Dec } from '../../lib/money';
import type { ServiceContext } from '../context';
import { accountView } from './accounts';
import { recordSettingsChanges } from './history';
import { CODE_MAX, NAME_MAX } from './setup';
import { taxCodeView } from './tax-codes';
import { projectPath } from '../../lib/project-root';

/**
 * What every new organization starts with, so it can invoice at once (docs/design.md §10 and §15):
 * the default Malaysian SME chart of accounts (data/default-chart-of-accounts.json) and the SST tax
 * codes (data/default-tax-codes.json). Written as the system, each record's creation in the settings
 * history. Organizations created before the defaults existed get them from the backfill
 * drizzle/0005_default-reference-data.sql, which carries the same rows.
 */

const codeList = <S extends z.ZodType>(file: string, entry: S) => {
  const url = projectPath('data', file);
  const parsed = z.object({ source: z.string().min(1), entries: z.array(entry).min(1) }).safeParse(JSON.parse(readFileSync(url, 'utf8')));
  if (!parsed.success) throw new Error(`data/${file} is not a valid defaults file: ${parsed.error.message}`);
  const codes = parsed.data.entries.map((e) => (e as { code: string }).code);
  if (new Set(codes).size !== codes.length) throw new Error(`data/${file}: a code appears twice`);
  return parsed.data.entries;
};

const code = z.string().min(1).max(CODE_MAX);
const name = z.string().min(1).max(NAME_MAX);

export const DEFAULT_ACCOUNTS = codeList('default-chart-of-accounts.json', z.object({ code, name, type: z.enum(ACCOUNT_TYPES) }));

export const DEFAULT_TAX_CODES = codeList(
  'default-tax-codes.json',
  z.object({
    code,
    name,
    rate: z.string().refine((r) => checkRatePlaces(r) && new Dec(r).gte(0) && new Dec(r).lte(100), 'a rate from 0 to 100'),
    tax_type: z.string().refine(isTaxType, 'a MyInvois tax type'),
  }),
);

/** Inserts the default accounts and tax codes of a new organization, with their history. */
export async function insertDefaultReferenceData(ctx: ServiceContext): Promise<void> {
  const organizationId = ctx.org.id;
  const accounts = await insertAccounts(ctx.db, DEFAULT_ACCOUNTS.map((a) => ({ organizationId, code: a.code, name: a.name, type: a.type })));
  const taxCodes = await insertTaxCodes(
    ctx.db,
    DEFAULT_TAX_CODES.map((t) => ({ organizationId, code: t.code, name: t.name, rate: t.rate, taxType: t.tax_type, taxPackKind: 'my_sst' })),
  );
  await recordSettingsChanges(ctx, [
    ...accounts.map((a) => ({ entity: 'accounts', record_id: a.id, action: 'create', before: null, after: accountView(a) })),
    ...taxCodes.map((t) => ({ entity: 'taxCodes', record_id: t.id, action: 'create', before: null, after: taxCodeView(t) })),
  ]);
}
