/**
 * Bank statements: bank accounts with their column mapping, the CSV upload, the lines with their
 * suggested matches, and accept / ignore / undo. Reads need receivables.invoice.read; writes the
 * receipts' permission, receivables.receipt.create. Meta, schemas and one service call each.
 */
import { z } from 'zod';
import { idInput } from '../../../contract/fields';
import {
  acceptedLineSchema,
  acceptLineInput,
  bankAccountInput,
  bankAccountListSchema,
  bankAccountSchema,
  lineIdInput,
  listStatementLinesInput,
  presetListSchema,
  statementLineListSchema,
  statementLineSchema,
  updateBankAccountInput,
  uploadStatementInput,
  uploadStatementSchema,
} from '../../../contract/receivables/bank-statements';
import { createBankAccount, getBankAccount, listBankAccounts, listPresets, updateBankAccount, uploadStatement } from '../../../services/bank-statements/accounts';
import { acceptLine, getStatementLine, ignoreLine, undoLine } from '../../../services/bank-statements/decide';
import { listStatementLines } from '../../../services/bank-statements/lines';
import { svc } from '../../context';
import { expectedRevision, setEtag } from '../../http';
import { readProcedure, writeProcedure } from '../../procedures';
import { router } from '../../trpc';

const READ = 'receivables.invoice.read';
const WRITE = 'receivables.receipt.create';
const TAGS = ['Bank statements'];

export const bankStatementsRouter = router({
  presets: readProcedure(READ)
    .input(z.strictObject({}).optional())
    .output(presetListSchema)
    .query(() => listPresets()),
  listAccounts: readProcedure(READ)
    .input(z.strictObject({}).optional())
    .output(bankAccountListSchema)
    .query(({ ctx }) => listBankAccounts(svc(ctx))),
  getAccount: readProcedure(READ)
    .input(idInput)
    .output(bankAccountSchema)
    .query(async ({ ctx, input }) => {
      const account = await getBankAccount(svc(ctx), input);
      setEtag(ctx, account.revision);
      return account;
    }),
  createAccount: writeProcedure(WRITE)
    .input(bankAccountInput)
    .output(bankAccountSchema)
    .mutation(async ({ ctx, input }) => {
      const account = await createBankAccount(svc(ctx), input);
      setEtag(ctx, account.revision);
      return account;
    }),
  updateAccount: writeProcedure(WRITE)
    .input(updateBankAccountInput)
    .output(bankAccountSchema)
    .mutation(async ({ ctx, input }) => {
      const account = await updateBankAccount(svc(ctx), { ...input, expected_revision: expectedRevision(ctx) });
      setEtag(ctx, account.revision);
      return account;
    }),
  upload: writeProcedure(WRITE)
    .meta({
      openapi: {
        method: 'POST',
        path: '/receivables/bank-accounts/{id}/statements',
        summary: "Upload a bank statement CSV",
        description:
          "Reads the CSV export with the bank account's saved column mapping and stores each line once: a line is the same line when its " +
          'account, date, amount, reference and balance are, so an overlapping upload adds only the new lines (`added`; `already_there` ' +
          'counts the others). A cell that cannot be read is 422 validation at /csv/rows/<row>/<heading>, and nothing is stored. ' +
          'Permission: receivables.receipt.create.',
        tags: TAGS,
        protect: true,
      },
    })
    .input(uploadStatementInput)
    .output(uploadStatementSchema)
    .mutation(({ ctx, input }) => uploadStatement(svc(ctx), input)),
  lines: readProcedure(READ)
    .meta({
      openapi: {
        method: 'GET',
        path: '/receivables/bank-accounts/{id}/lines',
        summary: "List a bank account's statement lines with suggested matches",
        description:
          'Oldest first, a keyset page. Each open credit carries its suggestions among open invoices and debit notes and unallocated receipts ' +
          "of the account's currency, best first, each with a score (0 to 100) and its reasons: the only open item of exactly the amount " +
          '(unique_exact_amount, always first), exact_amount, document_number or customer_reference in the description, jompay_ref1 (the ' +
          "reference is the document number or the customer's code), receipt_reference, customer_name (trigram similarity). " +
          'Permission: receivables.invoice.read.',
        tags: TAGS,
        protect: true,
      },
    })
    .input(listStatementLinesInput)
    .output(statementLineListSchema)
    .query(({ ctx, input }) => listStatementLines(svc(ctx), input)),
  getLine: readProcedure(READ)
    .input(lineIdInput)
    .output(statementLineSchema)
    .query(async ({ ctx, input }) => {
      const line = await getStatementLine(svc(ctx), input);
      setEtag(ctx, line.revision);
      return line;
    }),
  accept: writeProcedure(WRITE)
    .meta({
      openapi: {
        method: 'POST',
        path: '/receivables/bank-statement-lines/{id}/accept',
        summary: 'Accept a statement line as a customer payment',
        description:
          "Writes, in one transaction, a receipt of the line's amount on its date (method bank_transfer) and its allocations to the documents " +
          'named (several split the line; what is left stays unallocated), or allocates the receipt named by receipt_id. Send an ' +
          'Idempotency-Key: a retry answers the first result. A document paid since is 409 conflict naming it; a line already decided is 409. ' +
          'Permission: receivables.receipt.create.',
        tags: TAGS,
        protect: true,
      },
    })
    .input(acceptLineInput)
    .output(acceptedLineSchema)
    .mutation(async ({ ctx, input }) => {
      const answer = await acceptLine(svc(ctx), input);
      setEtag(ctx, answer.line.revision);
      return answer;
    }),
  ignore: writeProcedure(WRITE)
    .input(lineIdInput)
    .output(statementLineSchema)
    .mutation(async ({ ctx, input }) => {
      const line = await ignoreLine(svc(ctx), input);
      setEtag(ctx, line.revision);
      return line;
    }),
  undo: writeProcedure(WRITE)
    .input(lineIdInput)
    .output(statementLineSchema)
    .mutation(async ({ ctx, input }) => {
      const line = await undoLine(svc(ctx), input);
      setEtag(ctx, line.revision);
      return line;
    }),
});
