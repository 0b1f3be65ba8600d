/**
 * The bets module's public surface: the bet aggregate other modules may use. Its repositories (bets.repo.ts,
 * bet-writes.repo.ts, bet-state.repo.ts) are the only writers of `bet`, `bet_selection` and `bet_builder`, and a bet changes state
 * only through a change core's table of bet states allows (docs/adr/0038-bet-owner.md).
 */
export * from './bet.js';
export {
  type BetChanges,
  type BetSettlementState,
  checkTransition,
  setCashedOut,
  transitionBet,
  transitionBets,
  watchBetTransitions,
  writeSettlementStates,
} from './bet-state.repo.js';
export {
  insertBet,
  insertBets,
  insertReportedBets,
  type NewBet,
  type NewBuilder,
  type NewSelection,
  type ReportedBetRow,
  type ReportedSelectionRow,
  type SelectionChange,
  setAcceptedBuilderOdds,
  setAcceptedOdds,
  setBoost,
  setForeignCashedOut,
  writeSelectionResults,
} from './bet-writes.repo.js';
export {
  assemble,
  type ClientKey,
  findBet,
  findBetsByClientKey,
  lastBetTimes,
  loadBets,
  lockBets,
  type PlayerEvents,
  recordBetTimes,
} from './bets.repo.js';
export { builderRows } from './builder-rows.js';
