import { router } from '../trpc';
import { loginProcedure } from './login';
import { logoutProcedure } from './logout';
import { meProcedure } from './me';

/** auth.*: people log in and out (tRPC only, DESIGN section 5). */
export const authRouter = router({
  login: loginProcedure,
  logout: logoutProcedure,
  me: meProcedure,
});
