import { tradeLineContract } from '../../../contract/settings/trade-lines';
import { createTradeLine, deactivateTradeLine, listTradeLinesPage, updateTradeLine } from '../../../services/settings/trade-lines';
import { setupRouter } from '../setup-router';

/** settings.tradeLines.*: a customer's delivery and sales return lines (base units). */
export const tradeLinesRouter = setupRouter(tradeLineContract, { list: listTradeLinesPage, create: createTradeLine, update: updateTradeLine, deactivate: deactivateTradeLine });
