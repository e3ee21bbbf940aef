import { JobRegistry } from '../../src/jobs/registry';

/**
 * The kinds of `registry` that `keep` accepts, with their handlers and schedules. On PostgreSQL every
 * test file shares one job table: a test that runs jobs until none is left takes only the kinds it
 * exercises, so the backlog other files left (deliveries to their webhook endpoints, their e-mail)
 * neither runs under it nor holds it up.
 */
export function registryOf(registry: JobRegistry, keep: (kind: string) => boolean): JobRegistry {
  const only = new JobRegistry();
  for (const kind of registry.kinds().filter(keep)) {
    const { kind: _kind, handler, ...options } = registry.get(kind)!;
    only.register(kind, handler, options);
  }
  return only;
}
