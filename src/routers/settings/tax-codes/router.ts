import { taxCodeContract } from '../../../contract/settings/tax-codes';
import { createTaxCode, deactivateTaxCode, listTaxCodesPage, updateTaxCode } from '../../../services/settings/tax-codes';
import { setupRouter } from '../setup-router';

/** settings.taxCodes.*: tax codes; a used code's rate and tax type are fixed. */
export const taxCodesRouter = setupRouter(
  taxCodeContract,
  { list: listTaxCodesPage, create: createTaxCode, update: updateTaxCode, deactivate: deactivateTaxCode },
  'setting',
  {
    path: '/settings/tax-codes',
    summary: 'List tax codes',
    description: "The organization's tax codes: the tax_code_id of an invoice line is one of these (an active one), with its rate and MyInvois tax type.",
    tag: 'Settings',
  },
);
