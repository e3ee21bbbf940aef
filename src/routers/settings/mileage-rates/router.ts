import { mileageRateContract } from '../../../contract/settings/mileage-rates';
import { createMileageRate, deactivateMileageRate, listMileageRates, updateMileageRate } from '../../../services/expenses/mileage-rates';
import { setupRouter } from '../setup-router';

/**
 * settings.mileageRates.*: dated rates with contiguous bands from 0 km; the currency defaults to the base currency.
 * The list runs by valid_from (`on`: the rates in force that day). A rate claim lines were priced
 * with keeps its bands and currency (409 conflict): a rate in force changes by a new dated rate,
 * ending this one with valid_to. A deactivated rate is offered to no new claim line; lines already
 * priced keep it.
 */
export const mileageRatesRouter = setupRouter(mileageRateContract, { list: listMileageRates, create: createMileageRate, update: updateMileageRate, deactivate: deactivateMileageRate });
