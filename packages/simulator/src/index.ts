/**
 * `@bookie/simulator`: replays real football seasons (football-data.co.uk) through Bookie — the CSV importer, the
 * spec-02 markets and deterministic ids, results from real scores, the season as trading commands, and the
 * executor that sends them (docs/adr/0010-replay-importer.md).
 *
 * @packageDocumentation
 */
export * from './apply-script.js';
export * from './bettors.js';
export * from './builder-calibration.js';
export * from './clients.js';
export * from './football-data.js';
export * from './ids.js';
export * from './in-play.js';
export * from './in-play-report.js';
export * from './in-play-runner.js';
export * from './markets.js';
export * from './odds-stream.js';
export * from './odds-stream-run.js';
export * from './poisson.js';
export * from './prng.js';
export * from './progress.js';
export * from './replay.js';
export * from './report.js';
export * from './reported-bets.js';
export * from './results.js';
export * from './season-script.js';
export * from './zoned-time.js';
