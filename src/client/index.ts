export { createHttpClient, type HttpClient, type HttpClientOptions, type CallContext } from './http';
export { createInProcessClient, type InProcessClient } from './in-process';
export type { AppRouter } from '../routers/app';
