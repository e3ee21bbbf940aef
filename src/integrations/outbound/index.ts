/** The outbound address guard (guard.ts), its networks (networks.ts) and its HTTP (fetch.ts). */
export * from './guard';
export * from './fetch';
export { parseNetworkList, parseAddress, internalRange, type Network } from './networks';
