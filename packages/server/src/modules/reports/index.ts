/** The reports module's public surface: what other modules may use. */
export * from './reconcile-report.js';
