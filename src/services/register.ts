/**
 * Wires the areas' hooks for a new organization (the default workflows, chart of accounts and SST tax
 * codes) into organization set-up. Imported once by every entry point (server, CLI, tests) so an
 * organization always gets everything it needs.
 */
import { registerReferenceDataDefaults } from './settings/defaults';
import { registerWorkflowDefaults } from './workflow/workflows';

let registered = false;
if (!registered) {
  registered = true;
  registerWorkflowDefaults();
  registerReferenceDataDefaults();
}
