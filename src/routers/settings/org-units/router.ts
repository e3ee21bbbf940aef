import { router } from '../../trpc';
import { createOrgUnitProcedure } from './create-org-unit';
import { deactivateOrgUnitProcedure } from './deactivate-org-unit';
import { listOrgUnitsProcedure } from './list-org-units';
import { updateOrgUnitProcedure } from './update-org-unit';

/** settings.orgUnits.*: the units of the organization chart. */
export const orgUnitsRouter = router({
  list: listOrgUnitsProcedure,
  create: createOrgUnitProcedure,
  update: updateOrgUnitProcedure,
  deactivate: deactivateOrgUnitProcedure,
});
