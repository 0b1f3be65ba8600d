import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './wiring.js';

/**
 * Registers every module's routes and background work. One line per module, in dependency order.
 */
export async function registerModules(_app: FastifyInstance, _deps: AppDeps): Promise<void> {}
