import {
  insertAccount,
  listAccounts,
  lockAccount,
  updateAccountRow,
  type AccountRow,
} from '../../db/queries/reference-data';
import type { AccountType } from '../../domain/receivables';
import { Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { recordSettingsChange } from './history';
import type { PageInput } from './page';
import { checkCode, checkName, keysetPage, leavesUnchanged, lockedForChange, must, uniquely } from './rules';

/**
 * The chart of accounts (settings.accounts.*). Document lines name an account; an inactive one is
 * refused on new lines (prepare-document checks `active`), lines already priced keep theirs.
 */

export function accountView(a: AccountRow) {
  return { id: a.id, code: a.code, name: a.name, type: a.type, active: a.active, revision: a.revision };
}
export type AccountView = ReturnType<typeof accountView>;

const ENTITY = 'accounts';
const CODE_IN_USE = 'accounts_org_code';

export interface CreateAccountInput {
  code: string;
  name: string;
  type: AccountType;
}

/** Creates an account; the row as stored (the old signatures answer rows). */
export async function createAccountRow(ctx: ServiceContext, input: CreateAccountInput): Promise<AccountRow> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  r.throwIfAny();
  const code = input.code.trim();
  const row = must(
    await uniquely(
      () => insertAccount(ctx.db, { organizationId: ctx.org.id, code, name: input.name.trim(), type: input.type }),
      CODE_IN_USE,
      '/code',
      `An account with the code ${code} already exists`,
    ),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', before: null, after: accountView(row) });
  return row;
}

export async function createAccount(ctx: ServiceContext, input: CreateAccountInput): Promise<AccountView> {
  return accountView(await createAccountRow(ctx, input));
}

export interface UpdateAccountInput {
  id: string;
  expected_revision: number;
  code?: string;
  name?: string;
  type?: AccountType;
}

export async function updateAccount(ctx: ServiceContext, input: UpdateAccountInput): Promise<AccountView> {
  const r = new Refusals();
  checkCode(r, input.code);
  checkName(r, input.name);
  r.throwIfAny();
  const current = lockedForChange(await lockAccount(ctx.db, { organizationId: ctx.org.id, id: input.id }), input.expected_revision, 'account');
  const code = input.code?.trim();
  const patch = { code, name: input.name?.trim(), type: input.type };
  if (leavesUnchanged(current, patch)) return accountView(current);
  const row = must(
    await uniquely(
      () => updateAccountRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { ...patch, revision: current.revision + 1 }),
      CODE_IN_USE,
      '/code',
      `An account with the code ${code} already exists`,
    ),
  );
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before: accountView(current), after: accountView(row) });
  return accountView(row);
}

export async function deactivateAccount(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<AccountView> {
  const current = lockedForChange(await lockAccount(ctx.db, { organizationId: ctx.org.id, id: input.id }), input.expected_revision, 'account');
  if (!current.active) return accountView(current);
  const row = must(await updateAccountRow(ctx.db, { organizationId: ctx.org.id, id: current.id }, { active: false, revision: current.revision + 1 }));
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before: accountView(current), after: accountView(row) });
  return accountView(row);
}

export interface ListAccountsInput extends PageInput {
  include_inactive?: boolean;
}

export async function listAccountsPage(ctx: ServiceContext, input: ListAccountsInput) {
  const includeInactive = input.include_inactive ?? false;
  return keysetPage(
    ctx,
    'settings.accounts',
    input,
    { include_inactive: includeInactive },
    (after, limit) => listAccounts(ctx.db, { organizationId: ctx.org.id, includeInactive, after, limit }),
    (a) => a.code,
    accountView,
  );
}
