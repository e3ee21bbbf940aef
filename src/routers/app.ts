import { authRouter } from './auth/router';
import { bankStatementsRouter } from './receivables/bank-statements/router';
import { documentsRouter } from './documents/router';
import { claimsRouter } from './expenses/claims/router';
import { meRouter } from './me/router';
import { customersRouter } from './receivables/customers/router';
import { invoicesRouter } from './receivables/invoices/router';
import { receiptsRouter } from './receivables/receipts/router';
import { reportsRouter } from './receivables/reports/router';
import { organizationRouter } from './organization/router';
import { settingsRouter } from './settings/router';
import { journalRouter } from './journal/router';
import { installOutputAnswers } from './output-answer';
import { router } from './trpc';

export const appRouter = router({
  receivables: router({
    customers: customersRouter,
    invoices: invoicesRouter,
    receipts: receiptsRouter,
    reports: reportsRouter,
    bankStatements: bankStatementsRouter,
  }),
  expenses: router({
    claims: claimsRouter,
  }),
  journal: journalRouter,
  organization: organizationRouter,
  auth: authRouter,
  settings: settingsRouter,
  me: meRouter,
  documents: documentsRouter,
});

// Every procedure's answer projected onto its output schema (or parsed; see output-answer.ts).
installOutputAnswers(appRouter);

export type AppRouter = typeof appRouter;
