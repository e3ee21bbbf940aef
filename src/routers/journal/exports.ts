/** POST/GET /v1/journal/exports and `journal.exports.*`: meta, schemas and one service call each. */
import { createExportInput, getExportInput, journalBatchSchema, listExportsInput, listExportsSchema } from '../../contract/journal';
import { createJournalExport, getJournalExport, listJournalExports } from '../../services/journal/exports';
import { CONTENT_TYPES, FILE_EXTENSIONS, renderBatch } from '../../services/journal/formats';
import { svc } from '../context';
import { setCreated } from '../http';
import { readProcedure, writeProcedure } from '../procedures';

export const createExportProcedure = writeProcedure('receivables.journal.export')
  .meta({
    openapi: {
      method: 'POST',
      path: '/journal/exports',
      summary: 'Export the journal entries not yet exported',
      description:
        'Takes every journal entry dated on or before up_to that no batch holds yet into the next batch (numbered from 1 per organization, without gaps) and answers it with 201. ' +
        'An entry is in exactly one batch, even when two exports run at once. Nothing left to take: 409 conflict. Permission: receivables.journal.export.',
      tags: ['Journal'],
      protect: true,
    },
    successStatus: 201,
  })
  .input(createExportInput)
  .output(journalBatchSchema)
  .mutation(async ({ ctx, input }) => {
    const batch = await createJournalExport(svc(ctx), input);
    setCreated(ctx, `/v1/journal/exports/${batch.number}`);
    return batch;
  });

export const listExportsProcedure = readProcedure('receivables.journal.export')
  .meta({
    openapi: {
      method: 'GET',
      path: '/journal/exports',
      summary: 'List journal export batches',
      description: 'Batches newest first (number, up_to, created_at, entry_count); next_before pages on. Permission: receivables.journal.export.',
      tags: ['Journal'],
      protect: true,
    },
  })
  .input(listExportsInput)
  .output(listExportsSchema)
  .query(({ ctx, input }) => listJournalExports(svc(ctx), input));

export const getExportProcedure = readProcedure('receivables.journal.export')
  .meta({
    openapi: {
      method: 'GET',
      path: '/journal/exports/{number}',
      summary: 'Download a journal export batch',
      description:
        'The batch as JSON, or over REST as a file: format=csv (every field, one row per line), sql_account (SQL Account text import, journal entry MASTER/DETAIL rows), ' +
        "autocount (AutoCount journal entry import sheet) or xero (Xero's manual journal import template). The same batch always downloads as the same bytes. " +
        'Permission: receivables.journal.export.',
      tags: ['Journal'],
      protect: true,
    },
  })
  .input(getExportInput)
  .output(journalBatchSchema)
  .query(async ({ ctx, input }) => {
    const service = svc(ctx);
    const batch = await getJournalExport(service, input);
    const format = input.format ?? 'json';
    if (format !== 'json' && ctx.transport === 'rest') {
      ctx.out.headers['Content-Type'] = CONTENT_TYPES[format];
      ctx.out.headers['Content-Disposition'] = `attachment; filename="journal-${batch.number}-${format}.${FILE_EXTENSIONS[format]}"`;
      ctx.out.body = renderBatch(batch, format, service.org.baseCurrency);
    }
    return batch;
  });
