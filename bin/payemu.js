#!/usr/bin/env node
// The published entry: runs the compiled CLI (npm run build makes dist/).
import('../dist/cli/main.js').then((cli) => cli.main(process.argv));
