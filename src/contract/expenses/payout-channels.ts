import { z } from 'zod';
import { DUITNOW_ID_TYPES, PAYOUT_CHANNEL_KEYS } from '../../domain/expenses';
import { text, timestamp, uuid } from '../fields';

const name = text(100).describe('What the member calls the channel ("Salary account")');

export const createPayoutChannelInput = z.discriminatedUnion('channel_key', [
  z.strictObject({
    channel_key: z.literal('bank_transfer'),
    name,
    fields: z.strictObject({
      bank: z.string().min(1, { message: 'must not be blank' }).max(11, { message: 'must be at most 11 characters' }).describe('SWIFT BIC of a Malaysian bank, such as MBBEMYKL'),
      account_holder: text(100),
      account_number: z.string().min(1, { message: 'must not be blank' }).max(40, { message: 'must be at most 40 characters' }).describe('6 to 20 digits (spaces and hyphens are dropped)'),
    }),
  }),
  z.strictObject({
    channel_key: z.literal('duitnow'),
    name,
    fields: z.strictObject({
      id_type: z.enum(DUITNOW_ID_TYPES),
      id_value: z.string().min(1, { message: 'must not be blank' }).max(40, { message: 'must be at most 40 characters' }),
    }),
  }),
]);

export const payoutChannelSchema = z
  .object({
    id: uuid(),
    member_id: uuid(),
    channel_key: z.enum(PAYOUT_CHANNEL_KEYS),
    name: z.string(),
    fields: z
      .array(
        z.object({
          key: z.string(),
          label: z.object({ en: z.string(), ms: z.string(), zh: z.string().optional() }),
          display: z.string().describe('The masked value (account tail, initials) or, for the bank and ID type, the name in clear'),
        }),
      )
      .describe('Masked only: the values are kept encrypted and never answered'),
    active: z.boolean(),
    revision: z.int(),
    created_at: timestamp(),
  })
  .meta({ id: 'PayoutChannel' });
