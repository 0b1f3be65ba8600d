import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root directory. */
export const FRAME_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the frame is built (`bootstrap.js`, `app.js`): served by the server at `/frame/`; never committed. */
export const FRAME_DIST = join(FRAME_ROOT, 'dist');

/** The files of a build, relative to {@link FRAME_DIST}. */
export const FRAME_FILES = ['bootstrap.js', 'app.js'] as const;
