import { changePassword, loginSettings } from '../../services/access/login';
import { svc } from '../context';
import { sessionProcedure } from '../procedures';
import { changePasswordInput, changePasswordOutput } from '../../contract/auth';

/**
 * auth.changePassword (tRPC only, a session): the caller's new password, the current one required.
 * A wrong current password is 401 `current_password_wrong` at /current_password, counted and limited
 * as a failed login (429); the new one follows the members' password policy (422 at /new_password).
 * Every other session of the member ends; this one is kept. Not through the write transaction: a
 * wrong password must stay counted while the change is refused (the service opens its own).
 */
export const changePasswordProcedure = sessionProcedure
  .input(changePasswordInput)
  .output(changePasswordOutput)
  .mutation(({ ctx, input }) => {
    ctx.out.headers['Cache-Control'] = 'no-store';
    return changePassword(svc(ctx), { ip: ctx.ip, settings: loginSettings(ctx.deps.config) }, input);
  });
