import { router } from '../trpc';
import { changePasswordProcedure } from './change-password';
import { loginProcedure } from './login';
import { logoutProcedure } from './logout';
import { meProcedure } from './me';
import { acceptInvitationProcedure, readLinkProcedure, requestPasswordResetProcedure, resetPasswordProcedure } from './links';

/** auth.*: people log in and out (tRPC only, docs/design.md §5). */
export const authRouter = router({
  login: loginProcedure,
  logout: logoutProcedure,
  me: meProcedure,
  changePassword: changePasswordProcedure,
  requestPasswordReset: requestPasswordResetProcedure,
  readLink: readLinkProcedure,
  acceptInvitation: acceptInvitationProcedure,
  resetPassword: resetPasswordProcedure,
});
