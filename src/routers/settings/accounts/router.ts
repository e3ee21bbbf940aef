import { accountContract } from '../../../contract/settings/accounts';
import { createAccount, deactivateAccount, listAccountsPage, updateAccount } from '../../../services/settings/accounts';
import { setupRouter } from '../setup-router';

/** settings.accounts.*: the chart of accounts. */
export const accountsRouter = setupRouter(
  accountContract,
  { list: listAccountsPage, create: createAccount, update: updateAccount, deactivate: deactivateAccount },
  'setting',
  {
    path: '/settings/accounts',
    summary: 'List accounts',
    description: "The organization's chart of accounts: the account_id of an invoice line is one of these (an active one).",
    tag: 'Settings',
  },
);
