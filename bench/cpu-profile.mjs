// Preloaded with `--import` (in NODE_OPTIONS) into a child process whose CPU profile a bench wants (NODE_OPTIONS
// cannot carry --cpu-prof). It writes <PROF_OUT>/<PROF_NAME>-<pid>.cpuprofile (written to a temporary name, then
// renamed, so a file that exists is complete):
// - by default, one profile from start to exit;
// - with PROF_ON_SIGNAL=1, a profile of the span between two SIGUSR2 (the first starts the profiler, the second
//   stops it and writes the file; a third starts again): the bench profiles its measured phase only.
// PROF_INTERVAL_US sets the sampling interval (V8's default, 1000 µs, when unset).
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
session.post('Profiler.enable');
if (process.env.PROF_INTERVAL_US) {
  session.post('Profiler.setSamplingInterval', { interval: Number(process.env.PROF_INTERVAL_US) });
}
const file = `${process.env.PROF_OUT}/${process.env.PROF_NAME ?? 'child'}-${process.pid}.cpuprofile`;
const write = (profile) => {
  writeFileSync(`${file}.tmp`, JSON.stringify(profile));
  renameSync(`${file}.tmp`, file);
};

if (process.env.PROF_ON_SIGNAL === '1') {
  let running = false;
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.start');
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, result) => {
      if (!err) write(result.profile);
    });
  });
} else {
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) write(result.profile);
    });
  });
}
