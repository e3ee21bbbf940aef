import { seedDemo, type DemoData } from '../../src/demo/seed-demo';
import type { TestApp } from './app';

/**
 * The demo data set seeded once for the test file (by whichever test asks first), for tests that
 * only read it or act in it without undoing what another test reads. Seeding takes 10–25 s; a test
 * about seeding itself (a second run beside the first) still calls seedDemo.
 */
export function demoOnce(t: TestApp): () => Promise<DemoData> {
  let seeded: Promise<DemoData> | undefined;
  return () => (seeded ??= seedDemo(t.deps, new Date()));
}
