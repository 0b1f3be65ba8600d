// Preloaded with `--import` into a child process whose CPU profile a bench wants (NODE_OPTIONS cannot carry
// --cpu-prof): profiles from start to exit and writes <PROF_OUT>/<name>-<pid>.cpuprofile.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.start');
process.on('exit', () => {
  session.post('Profiler.stop', (err, result) => {
    if (!err) {
      const file = `${process.env.PROF_OUT}/${process.env.PROF_NAME ?? 'child'}-${process.pid}.cpuprofile`;
      writeFileSync(file, JSON.stringify(result.profile));
    }
  });
});
