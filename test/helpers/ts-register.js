/**
 * The TypeScript loader of the tests: package.json's "tap" config imports this file into every
 * test process ("node-arg"); it registers test/helpers/ts-hooks.js, which compiles each .ts file
 * with esbuild.
 *
 * Why not tap's own loader: on Node 20, @tapjs/typescript runs ts-node, which loads the
 * TypeScript compiler into every test process and compiles the source graph with it, file by
 * file: about 5 s of CPU in each of some 130 test processes, most of the suite's time. esbuild
 * compiles the same graph in a tenth of that. Both only strip the types (tap runs ts-node
 * transpile-only); `npm run typecheck` checks them.
 *
 * The config's "test-env" sets TAP_TYPE_STRIP_ONLY=1, which keeps tap's import (still first in
 * every test's execArgv) from starting ts-node. tap sets it back to 0 once loaded (Node 20 has
 * no type stripping of its own), so the processes a test starts are handled here too.
 */
import module from 'node:module';

// ts-node runs in this process when tap's import started it (a process started with tap's
// execArgv, in the environment tap set back). Then the hooks hand esbuild's code straight to
// Node: passed on down the chain, it would reach ts-node and be compiled a second time.
const tsNode = process.env.TAP_TYPE_STRIP_ONLY !== '1' && process.execArgv.some((arg) => arg.includes('@tapjs/typescript'));

// The processes started with this one's execArgv (the store's compactor, forked from source by
// the tests that use the library with a data directory; the runs of
// src/cli/cached-script.test.ts) get this loader by its absolute URL, whatever their working
// directory, and tap's coverage import, but not tap's TypeScript import, which would start
// ts-node there, nor its mock import, which loads tap's core into a process that runs no test
// (a third of a compactor's CPU time). Neither takes part in what they measure.
const own = process.execArgv
  .filter((arg) => !arg.includes('@tapjs/typescript') && !arg.includes('@tapjs/mock'))
  .map((arg) => (arg.startsWith('--import=') && arg.endsWith('/ts-register.js') ? `--import=${import.meta.url}` : arg));
process.execArgv.splice(0, process.execArgv.length, ...own);

module.register(new URL('./ts-hooks.js', import.meta.url), { data: { shortCircuit: tsNode } });
