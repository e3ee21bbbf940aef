/** The shapes of the claim list: its query (strict scalars, no coercion) and its page, from which the list service's return type is inferred. */
import { z } from 'zod';
import { CLAIM_LIST_SCOPES } from '../../domain/expenses';
import { limitParam } from '../receivables/document-list';
import { claimSchema } from './claims';

export const listClaimsInput = z.strictObject({
  scope: z
    .enum(CLAIM_LIST_SCOPES)
    .optional()
    .describe(
      'mine (default): claims you filed; to_act: claims you may sign now, each with your_share; ' +
        'all: every claim you may read (approvers and payers: all of the organization\'s)',
    ),
  // A state key of the organization's stored claim workflow: an unknown one is a rule (422), not a shape.
  state: z.string().max(100).optional().describe('Only claims in this state of the claim workflow (a state key; an unknown one is 422)'),
  month: z
    .string()
    .regex(/^[1-9]\d{3}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM')
    .optional()
    .describe("Only claims created in this month (YYYY-MM) of the organization's time zone"),
  q: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
    .optional()
    .describe('Case-insensitive substring of the reference or the title; % and _ are literal'),
  limit: limitParam.optional(),
  cursor: z.string().max(2000).optional().describe("The previous page's next_cursor, with the same scope and filters"),
});

export const claimListSchema = z
  .object({
    claims: z.array(claimSchema).describe('The claim part of each claim answer; your_share only under scope=to_act'),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  })
  .meta({ id: 'ClaimList' });

/** A page of the claim list: the service's return type is inferred from this schema. */
export type ClaimListPage = z.output<typeof claimListSchema>;
