#!/usr/bin/env node
// The published entry: runs the CLI, bundled by `npm run build` into dist/bin/ (one file to
// load instead of some 150 modules: start-up is about 100 ms faster). The bundle leaves out
// what loads lazily (ink and react, got, ajv, chokidar) and the library (dist/index.js).
import('../dist/bin/main.js').then((cli) => cli.main(process.argv));
