import { login, loginSettings } from '../../services/access/login';
import { publicProcedure } from '../trpc';
import { csrfRefused, sessionCookieHeader, sessionCookieMaxAge } from '../session-cookie';
import { loginInput, loginOutput } from '../../contract/auth';

/**
 * auth.login (tRPC only, no authentication): e-mail and password give a person's session. The same
 * 401 for every reason a login fails; 429 with Retry-After while the address or the account is
 * limited; 422 at /organization_id for a person of several organizations who named none (its
 * `organizations` list the ones that password opens, by id and name, only once the password is right).
 *
 * With `cookie: true` (the console) the session goes into the `fs_session` cookie (HttpOnly,
 * SameSite=Strict) and the answer carries no `session_token`: the token never reaches the page's
 * JavaScript. Such a login follows the cookie's own rule (X-Requested-With: console, from this
 * server's origin), else 403 csrf_refused before any password is checked.
 */
export const loginProcedure = publicProcedure
  .input(loginInput)
  .output(loginOutput)
  .mutation(async ({ ctx, input }) => {
    ctx.out.headers['Cache-Control'] = 'no-store';
    const settings = loginSettings(ctx.deps.config);
    if (input.cookie && ctx.cookie?.csrfRefusal) throw csrfRefused(ctx.cookie.csrfRefusal);
    const answer = await login({ db: ctx.deps.db, now: ctx.deps.now(), ip: ctx.ip, settings }, input);
    if (!input.cookie) return answer;
    const { session_token: token, ...rest } = answer;
    ctx.out.headers['Set-Cookie'] = sessionCookieHeader(token, sessionCookieMaxAge(settings.sessionSeconds), ctx.cookie?.secureCookie ?? true);
    return rest;
  });
