/**
 * Bank accounts whose statements are uploaded, with the column mapping saved once per account, and
 * the upload itself: the CSV read with the account's mapping and its lines stored once.
 */
import { findAccountsByIds } from '../../db/queries/accounts';
import {
  countOpenCredits,
  findBankAccount,
  insertBankAccount,
  insertStatementLines,
  listBankAccountRows,
  updateBankAccountRow,
  type BankAccountRow,
} from '../../db/queries/bank-statements';
import { PRESET_MAPPINGS, STATEMENT_DATE_FORMATS, STATEMENT_PRESETS, type StatementMapping, type StatementPreset } from '../../domain/bank-statements';
import { isCurrency } from '../../lib/code-lists';
import { notFound } from '../../lib/errors';
import { maxLength, notBlank, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { readStatement } from './read-csv';

export interface BankAccountView {
  id: string;
  name: string;
  account_number: string;
  currency: string;
  account_id: string | null;
  preset: StatementPreset;
  mapping: StatementMapping;
  created_at: string;
  revision: number;
  open_credits: number;
}

export function bankAccountView(row: BankAccountRow, openCredits: number): BankAccountView {
  return {
    id: row.id,
    name: row.name,
    account_number: row.accountNumber,
    currency: row.currency,
    account_id: row.accountId,
    preset: row.preset as StatementPreset,
    mapping: row.mapping,
    created_at: row.createdAt.toISOString(),
    revision: row.revision,
    open_credits: openCredits,
  };
}

export const listPresets = () => ({
  presets: STATEMENT_PRESETS.map((key) => ({ key, mapping: PRESET_MAPPINGS[key] })),
  date_formats: [...STATEMENT_DATE_FORMATS],
});

/** The fields a mapping must have for its amount layout, each refused at `/mapping/<field>`. */
function checkMapping(r: Refusals, m: StatementMapping) {
  const need: (keyof StatementMapping)[] = m.amount_layout === 'debit_credit' ? ['debit', 'credit'] : m.amount_layout === 'amount_type' ? ['amount', 'type'] : ['amount'];
  for (const k of need) r.check(Boolean(m[k]), `/mapping/${k}`, `is required when amount_layout is ${m.amount_layout}`);
}

async function checkLedgerAccount(ctx: ServiceContext, r: Refusals, accountId: string | null | undefined) {
  if (!accountId) return;
  const [acc] = await findAccountsByIds(ctx.db, { organizationId: ctx.org.id, ids: [accountId] });
  if (r.check(Boolean(acc), '/account_id', 'no such account in this organization')) r.check(acc!.type === 'asset', '/account_id', 'must be an asset account');
}

export interface CreateBankAccountInput {
  name: string;
  account_number?: string;
  currency?: string;
  account_id?: string | null;
  preset: StatementPreset;
  mapping?: StatementMapping;
}

export async function createBankAccount(ctx: ServiceContext, input: CreateBankAccountInput): Promise<BankAccountView> {
  const r = new Refusals();
  if (notBlank(r, input.name, '/name')) maxLength(r, input.name, 100, '/name');
  const currency = input.currency ?? ctx.org.baseCurrency;
  r.check(isCurrency(currency), '/currency', 'is not an ISO 4217 currency code');
  const mapping = input.mapping ?? PRESET_MAPPINGS[input.preset];
  checkMapping(r, mapping);
  await checkLedgerAccount(ctx, r, input.account_id);
  r.throwIfAny();
  const row = await insertBankAccount(ctx.db, {
    organizationId: ctx.org.id,
    name: input.name.trim(),
    accountNumber: input.account_number?.trim() ?? '',
    currency,
    accountId: input.account_id ?? null,
    preset: input.preset,
    mapping,
    createdAt: ctx.now,
  });
  return bankAccountView(row, 0);
}

/** Changes the account's name, number, ledger account or mapping, at the revision the caller read (409 when stale). */
export async function updateBankAccount(
  ctx: ServiceContext,
  input: Omit<Partial<CreateBankAccountInput>, 'currency'> & { id: string; expected_revision: number },
): Promise<BankAccountView> {
  const found = await findBankAccount(ctx.db, { organizationId: ctx.org.id, id: input.id, lock: true });
  if (!found) throw notFound('bank account');
  checkRevision(found.revision, input.expected_revision);
  const r = new Refusals();
  if (input.name !== undefined && notBlank(r, input.name, '/name')) maxLength(r, input.name, 100, '/name');
  const mapping = input.mapping ?? (input.preset ? PRESET_MAPPINGS[input.preset] : found.mapping);
  checkMapping(r, mapping);
  await checkLedgerAccount(ctx, r, input.account_id);
  r.throwIfAny();
  const row = await updateBankAccountRow(
    ctx.db,
    { organizationId: ctx.org.id, id: found.id },
    {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.account_number !== undefined ? { accountNumber: input.account_number.trim() } : {}),
      ...(input.account_id !== undefined ? { accountId: input.account_id } : {}),
      ...(input.preset !== undefined ? { preset: input.preset } : {}),
      mapping,
    },
  );
  return bankAccountView(row, await countOpenCredits(ctx.db, { organizationId: ctx.org.id, bankAccountId: row.id }));
}

export async function getBankAccount(ctx: ServiceContext, input: { id: string }): Promise<BankAccountView> {
  const row = await findBankAccount(ctx.db, { organizationId: ctx.org.id, id: input.id });
  if (!row) throw notFound('bank account');
  return bankAccountView(row, await countOpenCredits(ctx.db, { organizationId: ctx.org.id, bankAccountId: row.id }));
}

export async function listBankAccounts(ctx: ServiceContext): Promise<{ items: BankAccountView[] }> {
  const rows = await listBankAccountRows(ctx.db, { organizationId: ctx.org.id });
  return { items: rows.map((r) => bankAccountView(r.account, r.openCredits)) };
}

/**
 * Reads a CSV export with the account's mapping and stores its lines once: a line already stored
 * (same account, date, amount, reference and balance) is counted in `already_there`, not added.
 * Nothing is stored when any cell is refused (422 naming the rows and columns).
 */
export async function uploadStatement(ctx: ServiceContext, input: { id: string; csv: string }) {
  const account = await findBankAccount(ctx.db, { organizationId: ctx.org.id, id: input.id });
  if (!account) throw notFound('bank account');
  const lines = readStatement(input.csv, account.mapping);
  const added = await insertStatementLines(
    ctx.db,
    lines.map((l) => ({
      organizationId: ctx.org.id,
      bankAccountId: account.id,
      lineDate: l.date,
      amount: l.amount,
      description: l.description,
      reference: l.reference,
      balance: l.balance,
      sourceRow: l.row,
      createdAt: ctx.now,
    })),
  );
  const dates = lines.map((l) => l.date).sort();
  return {
    bank_account_id: account.id,
    lines_read: lines.length,
    added,
    already_there: lines.length - added,
    first_date: dates[0] ?? null,
    last_date: dates[dates.length - 1] ?? null,
  };
}
