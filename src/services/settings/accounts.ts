import { insertAccount, listAccounts, lockAccount, updateAccountRow, type AccountRow } from '../../db/queries/reference-data';
import type { AccountType } from '../../domain/receivables';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { changeRecord, checkCode, checkName, createdRecord, deactivateRecord, setupListPage, uniquely, type RecordChange, type SetupFamily, type SetupListInput } from './setup';

/**
 * The chart of accounts (settings.accounts.*). Document lines name an account; an inactive one is
 * refused on new lines (prepare-document checks `active`), lines already priced keep theirs.
 */

export function accountView(a: AccountRow) {
  return { id: a.id, code: a.code, name: a.name, type: a.type, active: a.active, revision: a.revision };
}
export type AccountView = ReturnType<typeof accountView>;

const codeInUse = <T>(write: () => Promise<T>, code: string | undefined) =>
  uniquely(write, 'accounts_org_code', '/code', `An account with the code ${code} already exists`);

const accounts: SetupFamily<AccountRow, AccountView> = {
  entity: 'accounts',
  what: 'account',
  lock: (ctx, id) => lockAccount(ctx.db, { organizationId: ctx.org.id, id }),
  write: (ctx, current, set) =>
    codeInUse(() => updateAccountRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...set, revision: current.revision + 1 }), set.code),
  view: (_ctx, row) => accountView(row),
  inactive: (_ctx, row) => (row.active ? undefined : 'is already inactive'),
};

export interface CreateAccountInput {
  code: string;
  name: string;
  type: AccountType;
}

export async function createAccount(ctx: ServiceContext, input: CreateAccountInput): Promise<AccountView> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  r.throwIfAny();
  const code = input.code.trim();
  return createdRecord(
    ctx,
    accounts,
    await codeInUse(() => insertAccount(ctx.db, { organizationId: ctx.org.id, code, name: input.name.trim(), type: input.type }), code),
  );
}

export interface UpdateAccountInput extends RecordChange {
  code?: string;
  name?: string;
  type?: AccountType;
}

export async function updateAccount(ctx: ServiceContext, input: UpdateAccountInput): Promise<AccountView> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  r.throwIfAny();
  return changeRecord(ctx, accounts, input, () => ({ code: input.code?.trim(), name: input.name?.trim(), type: input.type }));
}

export async function deactivateAccount(ctx: ServiceContext, input: RecordChange): Promise<AccountView> {
  return deactivateRecord(ctx, accounts, input, () => ({ active: false }));
}

export type ListAccountsInput = SetupListInput;

export function listAccountsPage(ctx: ServiceContext, input: ListAccountsInput) {
  return setupListPage(ctx, 'settings.accounts', input, {}, (q) => listAccounts(ctx.db, q), (a) => a.code, accountView);
}
