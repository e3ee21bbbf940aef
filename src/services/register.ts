/**
 * Wires the areas' hooks (organization set-up, demo sections) into the shared services. Imported once
 * by every entry point (server start, CLI, tests) so an organization always gets everything it needs.
 */
export {};
