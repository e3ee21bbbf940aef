/** The event vocabulary lives in domain/events.ts; services import it from here or there alike. */
export * from '../../domain/events';
