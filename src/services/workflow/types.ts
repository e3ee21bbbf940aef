/** The workflow vocabulary and definitions live in domain/workflow.ts; services import them from here or there alike. */
export * from '../../domain/workflow';
