import { z } from 'zod';
import { me } from '../../services/access/login';
import { svc } from '../context';
import { authedProcedure } from '../procedures';
import { meOutput } from '../../contract/auth';

/** auth.me: the caller's member, organization and effective permissions (a session or an API key). */
export const meProcedure = authedProcedure
  .input(z.strictObject({}).optional())
  .output(meOutput)
  .query(({ ctx }) => me(svc(ctx)));
