import type { Database } from '../../src/db/client';
import { createCustomer, type CreateCustomerInput } from './setup';

let counter = 0;

export async function createTestCustomer(db: Database, organizationId: string, input: Partial<CreateCustomerInput> = {}) {
  counter += 1;
  return createCustomer(db, organizationId, { code: `C-${counter}-${Math.random().toString(36).slice(2, 7)}`, legalName: `Customer ${counter} Sdn Bhd`, ...input });
}
