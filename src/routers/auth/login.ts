import { login, loginSettings } from '../../services/access/login';
import { publicProcedure } from '../trpc';
import { loginInput, loginOutput } from './schemas';

/**
 * auth.login (tRPC only, no authentication): e-mail and password give a person's session. The same
 * 401 for every reason a login fails; 429 with Retry-After while the address or the account is
 * limited; 422 at /organization_id for a person of several organizations who named none.
 */
export const loginProcedure = publicProcedure
  .input(loginInput)
  .output(loginOutput)
  .mutation(async ({ ctx, input }) => {
    ctx.out.headers['Cache-Control'] = 'no-store';
    return login({ db: ctx.deps.db, now: ctx.deps.now(), ip: ctx.ip, settings: loginSettings(ctx.deps.config) }, input);
  });
