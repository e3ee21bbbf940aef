/**
 * The shapes of the receivables reports: ageing as at a day and the collection figures. Shapes only;
 * what is open on a day, the buckets and the countback are the services' rules.
 */
import { z } from 'zod';
import { amountOut, isoDate, isoDateInput, uuid } from '../fields';

/** The default upper edges (days past due) of the buckets after `current`: 1–30, 31–60, 61–90, 91–120, then over 120. */
export const DEFAULT_AGEING_EDGES = [30, 60, 90, 120] as const;
/** At most this many edges (buckets: current, one per edge, and over the last). */
export const MAX_AGEING_EDGES = 10;
/** The largest edge an organization may set (days past due). */
export const MAX_AGEING_EDGE = 3650;

/** The bucket keys for edges: `current`, `days_1_30`, `days_31_60`, …, `over_<last edge>`. */
export function ageingBucketKeys(edges: readonly number[]): string[] {
  return ['current', ...edges.map((e, i) => `days_${i === 0 ? 1 : edges[i - 1]! + 1}_${e}`), `over_${edges.at(-1) ?? 0}`];
}

const asOfParam = isoDateInput().describe("The day the report is as at (YYYY-MM-DD); not after the organization's today");

export const ageingInput = z.strictObject({
  as_of: asOfParam,
  group: z
    .enum(['only', 'none'])
    .optional()
    .describe("only: customers that were mapped to another company of the organization's group on as_of; none: the others; all by default"),
  format: z
    .enum(['json', 'csv', 'pdf'])
    .optional()
    .describe('csv or pdf (REST only): the same figures as text/csv (one line per customer and currency) or as a printable application/pdf; json by default'),
});

const bucketsSchema = z.record(z.string(), amountOut());

export const ageingSchema = z
  .object({
    as_of: isoDate(),
    base_currency: z.string(),
    edges: z.array(z.int()).describe("The organization's bucket edges (days past due) the report was aged by; 30, 60, 90, 120 by default"),
    bucket_keys: z
      .array(z.string())
      .describe('The buckets in order: current (not yet due), then days_<from>_<to> per edge, then over_<last edge>; by default current, days_1_30, days_31_60, days_61_90, days_91_120, over_120'),
    customers: z
      .array(
        z.object({
          customer_id: uuid(),
          code: z.string(),
          legal_name: z.string(),
          is_group_company: z.boolean().describe("Mapped to another company of the organization's group on as_of"),
          currency: z.string(),
          buckets: bucketsSchema.describe('What was open on as_of in this currency per bucket key (every key of bucket_keys); credit notes and unallocated receipts negative'),
          total: amountOut().describe('Σ of the buckets, in currency'),
          total_base: amountOut().describe('The same in the base currency, each document at its own rate'),
        }),
      )
      .describe('One line per customer and currency with anything open on as_of, by customer code'),
    totals_base: bucketsSchema.describe('Σ per bucket key over every line, in base'),
    total_base: amountOut().describe('Σ total_base: Σ outstanding_base as at as_of of invoices and debit notes, less credit notes and unallocated receipts'),
  })
  .meta({ id: 'AgeingReport' });

export const ageingSettingsSchema = z
  .object({
    edges: z.array(z.int()).describe('Upper edges, in days past due, of the buckets after current; increasing; the last bucket is over the last edge'),
    bucket_keys: z.array(z.string()).describe('The bucket keys these edges give'),
    revision: z.int(),
  })
  .meta({ id: 'AgeingSettings' });

export const updateAgeingSettingsInput = z.strictObject({
  edges: z.array(z.int()).describe(`1 to ${MAX_AGEING_EDGES} increasing positive whole numbers of days, at most ${MAX_AGEING_EDGE}; default 30, 60, 90, 120`),
});

export const figuresInput = z.strictObject({
  as_of: asOfParam,
  from: isoDateInput().optional().describe('First day of the collection period; 89 days before as_of by default (90 days in all)'),
});

export const figuresSchema = z
  .object({
    as_of: isoDate(),
    base_currency: z.string(),
    outstanding_base: amountOut().describe('What invoices and debit notes had open on as_of, in base'),
    credits_base: amountOut().describe('Credit notes not yet applied and receipts not yet allocated on as_of, in base (positive)'),
    overdue_base: amountOut().describe('The part of outstanding_base past its due day on as_of'),
    collected: z.object({ from: isoDate(), to: isoDate(), amount_base: amountOut().describe('Σ of the receipts received in the period, in base') }),
    dso: z
      .object({
        days: amountOut().nullable().describe('Days sales outstanding by countback, two decimal places; null when the 90 days had no sales to count back through'),
        receivables_base: amountOut().describe('outstanding_base less credits_base: what the countback uses up'),
        periods: z
          .array(z.object({ from: isoDate(), to: isoDate(), sales_base: amountOut(), days_counted: amountOut() }))
          .describe('The 30-day periods counted back from as_of, newest first'),
      })
      .describe('Countback over 90 days: whole periods while the receivables exceed their sales, then the fraction of the period that uses up what is left'),
  })
  .meta({ id: 'ReceivablesFigures' });

export type AgeingReport = z.output<typeof ageingSchema>;
export type AgeingSettings = z.output<typeof ageingSettingsSchema>;
export type ReceivablesFigures = z.output<typeof figuresSchema>;
