import { buildProgram } from './cli/program.js';

await (await buildProgram(process.argv)).parseAsync(process.argv);
