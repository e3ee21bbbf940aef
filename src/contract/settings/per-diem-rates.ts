import { z } from 'zod';
import { amountOut, decimalInput, text } from '../fields';
import { datedRateContract } from './dated-rates';

/** settings.perDiemRates.*: a daily amount per band, at the currency's places. */
export const perDiemRateContract = datedRateContract(
  'PerDiemRate',
  z.strictObject({ band: text(50), amount_per_day: decimalInput() }),
  z.object({ band: z.string(), amount_per_day: amountOut().describe("At the currency's minor units") }),
);
