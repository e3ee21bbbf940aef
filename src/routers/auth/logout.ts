import { z } from 'zod';
import { logout } from '../../services/access/login';
import { svc } from '../context';
import { writeTransaction } from '../middleware/write-transaction';
import { sessionProcedure } from '../procedures';
import { clearedSessionCookieHeader } from '../session-cookie';

/**
 * auth.logout: ends the caller's session (an API key is 403 person_required; revoke keys with the
 * CLI). A request carrying the console's session cookie also gets it removed (Max-Age=0).
 */
export const logoutProcedure = sessionProcedure
  .use(writeTransaction)
  .input(z.strictObject({}).optional())
  .output(z.object({ revoked: z.literal(true) }))
  .mutation(async ({ ctx }) => {
    const answer = await logout(svc(ctx));
    if (ctx.cookie?.sessionCookie) ctx.out.headers['Set-Cookie'] = clearedSessionCookieHeader(ctx.cookie.secureCookie);
    return answer;
  });
