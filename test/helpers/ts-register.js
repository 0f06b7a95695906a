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
 * So the config's "plugin" leaves out tap's TypeScript plugin, and the plugins no test uses
 * (mock, snapshot, spawn, worker, intercept, stdin, chdir, after-each and node-serialize):
 * each is imported into every test process before its first line. The TypeScript and mock ones
 * cost about a quarter of a second of CPU (a loader thread, tap's core for the mocks), the other
 * eight some 40 modules, about 0.07 s, in each of the suite's nearly two hundred test processes.
 * A test that needs one of them names it back in the list (`npm run typecheck` says so: the test
 * class has only the methods of the plugins listed). tap builds its test class for the plugins
 * the config names (`tap build`, run by npm's `prepare` after `npm ci`, or by tap itself when
 * the list changed).
 */
import module from 'node:module';

// The processes started with this one's execArgv (the store's compactor, forked from source by
// the tests that use the library with a data directory; the runs of
// src/cli/cached-script.test.ts) get this loader by its absolute URL, whatever their working
// directory.
const own = process.execArgv.map((arg) => (arg.startsWith('--import=') && arg.endsWith('/ts-register.js') ? `--import=${import.meta.url}` : arg));
process.execArgv.splice(0, process.execArgv.length, ...own);

module.register(new URL('./ts-hooks.js', import.meta.url));
