import { z } from 'zod';
import { logout } from '../../services/access/login';
import { svc } from '../context';
import { writeTransaction } from '../middleware/write-transaction';
import { sessionProcedure } from '../procedures';

/** auth.logout: ends the caller's session (an API key is 403 person_required; revoke keys with the CLI). */
export const logoutProcedure = sessionProcedure
  .use(writeTransaction)
  .input(z.strictObject({}).optional())
  .output(z.object({ revoked: z.literal(true) }))
  .mutation(({ ctx }) => logout(svc(ctx)));
