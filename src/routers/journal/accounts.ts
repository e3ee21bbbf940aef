/** GET/PUT /v1/journal/accounts and `journal.accounts.*`: the control accounts the journal posts to. */
import { journalAccountsSchema, setJournalAccountInput } from '../../contract/journal';
import { listJournalAccountAnswers, setJournalAccount } from '../../services/journal/accounts';
import { svc } from '../context';
import { settingsReadProcedure, settingsWriteProcedure } from '../procedures';
import { z } from 'zod';

export const listJournalAccountsProcedure = settingsReadProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/journal/accounts',
      summary: "The journal's control accounts",
      description:
        'Every role the journal posts to (receivables control, SST payable, customer deposits, claims payable, a clearing account per receipt method and payout channel kind, ' +
        "exchange difference, bank charges, claim expense per category) with the account it resolves to: chosen (setup), the default chart's (default) or none (missing: " +
        'the events that post to it are refused with 409 journal_account_missing). Permission: organization.settings.read.',
      tags: ['Journal'],
      protect: true,
    },
  })
  .input(z.strictObject({}).optional())
  .output(journalAccountsSchema)
  .query(({ ctx }) => listJournalAccountAnswers(svc(ctx)));

export const setJournalAccountProcedure = settingsWriteProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/journal/accounts',
      summary: 'Choose a journal control account',
      description:
        "Sets the account a role (and key) posts to; account_id null goes back to the default chart's account. Entries already written keep their accounts. " +
        'Permission: organization.settings.manage.',
      tags: ['Journal'],
      protect: true,
    },
  })
  .input(setJournalAccountInput)
  .output(journalAccountsSchema)
  .mutation(({ ctx, input }) => setJournalAccount(svc(ctx), input));
