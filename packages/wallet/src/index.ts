/**
 * `@bookie/wallet`: the reference partner wallet: a callback server built on `@bookie/sdk` with a real
 * ledger (holds, captures, releases, credits, debits) in its own database. Test helpers live in `./testing/`.
 *
 * @packageDocumentation
 */
export { type WalletHandlerOptions, type WalletTx, walletHandlers } from './callbacks/wallet-handlers.js';
export { ConfigError, loadWalletConfig, type WalletConfig } from './config.js';
export { openWalletDatabase, WALLET_MIGRATIONS_DIR } from './db/database.js';
export type { WalletDB } from './db/schema.js';
export { buildWalletApp, type WalletAppDeps } from './http/app.js';
export { type FaultConfig, Faults, NO_FAULTS } from './http/faults.js';
export { type DepositInput, deposit } from './ledger/deposit.js';
export { type AccountCheck, checkLedger } from './ledger/invariant.js';
export { formatMicros, MICROS, toMicros } from './money.js';
export { type RunningWallet, startWallet } from './server.js';
