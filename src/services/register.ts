/**
 * Wires the areas' hooks (organization set-up, demo sections) into the shared services. Imported once
 * by every entry point (server, CLI, tests) so an organization always gets everything it needs.
 */
import { addDemoSection } from './demo/seed-demo';
import { registerClaimsDemo } from './expenses/demo-claims';
import { receivablesDemoSection } from './receivables/demo-receivables';
import { registerReferenceDataDefaults } from './settings/defaults';
import { registerWorkflowDefaults } from './workflow/workflows';

let registered = false;
if (!registered) {
  registered = true;
  registerWorkflowDefaults();
  registerReferenceDataDefaults();
  addDemoSection(receivablesDemoSection);
  registerClaimsDemo();
}
