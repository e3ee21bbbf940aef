import { counterpartyMappingContract } from '../../../contract/settings/counterparty-mappings';
import { createCounterpartyMapping, deactivateCounterpartyMapping, listCounterpartyMappingsPage, updateCounterpartyMapping } from '../../../services/settings/counterparty-mappings';
import { setupRouter } from '../setup-router';

/** settings.counterpartyMappings.*: the dated counterparty map; periods are inclusive and one customer's never overlap. */
export const counterpartyMappingsRouter = setupRouter(counterpartyMappingContract, { list: listCounterpartyMappingsPage, create: createCounterpartyMapping, update: updateCounterpartyMapping, deactivate: deactivateCounterpartyMapping });
