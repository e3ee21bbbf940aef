import { z } from 'zod';
import { readinessSchema } from '../../contract/organization/readiness';
import { intermediaryOf } from '../../services/einvoicing/build-client';
import { organizationReadiness } from '../../services/settings/readiness';
import { svc } from '../context';
import { settingsReadProcedure } from '../procedures';

/** organization.readiness: the set-up checklist, one answer (every item a check the service enforces). */
export const readinessProcedure = settingsReadProcedure
  .input(z.strictObject({}).optional())
  .output(readinessSchema)
  .query(({ ctx }) => organizationReadiness(svc(ctx), { intermediary: intermediaryOf(ctx.deps.config) }));
