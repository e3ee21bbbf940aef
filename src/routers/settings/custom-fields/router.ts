import { customFieldContract } from '../../../contract/settings/custom-fields';
import { createCustomField, deactivateCustomField, listCustomFieldsPage, updateCustomField } from '../../../services/settings/custom-field-definitions';
import { setupRouter } from '../setup-router';

/** settings.customFields.*: custom field definitions; key, type and record type are fixed once created. */
export const customFieldsRouter = setupRouter(customFieldContract, { list: listCustomFieldsPage, create: createCustomField, update: updateCustomField, deactivate: deactivateCustomField });
