#!/usr/bin/env node
// The published entry: runs the CLI, bundled by `npm run build` (scripts/build-cli.js) into one
// script, dist/bin/cli.cjs (one file to load instead of some 150 modules), compiled with V8's
// code cache: a start reuses the code the last start compiled (src/cli/cached-script.ts).
import module from 'node:module';
import { codeCacheDir, runCachedScript } from '../dist/cli/cached-script.js';

// Node 22.1 and later also keep the compiled code of the ES modules loaded from here on (the
// terminal UI, ink, got) between runs; NODE_DISABLE_COMPILE_CACHE=1 turns both caches off.
module.enableCompileCache?.();
const cli = runCachedScript(new URL('../dist/bin/cli.cjs', import.meta.url), codeCacheDir(), (specifier) => import(specifier));
cli.exports.main(process.argv, { keepCompiledCode: () => cli.save() });
