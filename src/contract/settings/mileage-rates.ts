import { z } from 'zod';
import { decimalInput, rateOut, text } from '../fields';
import { datedRateContract } from './dated-rates';

/** settings.mileageRates.*: bands in order, contiguous from 0 km (the service checks the order and the joins). */
export const mileageRateContract = datedRateContract(
  'MileageRate',
  z.strictObject({
    band: text(50),
    from_km: decimalInput(),
    to_km: decimalInput().nullable().optional().describe('Exclusive; null (or absent) for the open last band'),
    rate_per_km: decimalInput(),
  }),
  z.object({ band: z.string(), from_km: rateOut(), to_km: rateOut().nullable(), rate_per_km: rateOut() }),
);
