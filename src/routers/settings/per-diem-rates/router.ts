import { perDiemRateContract } from '../../../contract/settings/per-diem-rates';
import { createPerDiemRate, deactivatePerDiemRate, listPerDiemRates, updatePerDiemRate } from '../../../services/expenses/per-diem-rates';
import { setupRouter } from '../setup-router';

/**
 * settings.perDiemRates.*: dated rates with bands, amounts at the currency's places; the currency defaults to the base currency.
 * The list runs by valid_from (`on`: the rates in force that day). A rate claim lines were priced
 * with keeps its bands and currency (409 conflict): a rate in force changes by a new dated rate,
 * ending this one with valid_to. A deactivated rate is offered to no new claim line; lines already
 * priced keep it.
 */
export const perDiemRatesRouter = setupRouter(perDiemRateContract, { list: listPerDiemRates, create: createPerDiemRate, update: updatePerDiemRate, deactivate: deactivatePerDiemRate });
