// Writes .test-build/, the tree `npm test` runs (test/helpers/full-tier.js): every module of
// src/ and test/ as JavaScript, types stripped by esbuild, with an inline source map that names
// the TypeScript file (stack traces and coverage point at src/ and test/), beside a link to each
// file of the two folders (the .ts included: some tests read sources) and to everything else at
// the top of the project (docs/, fixtures/, dist/, package.json...), so that a path a test makes
// from its own URL lands where it does in the project.
//
// Why: run from TypeScript, every test process needs module hooks, and on Node 20 hooks run on a
// thread of their own that each import of the process goes through (a round trip for its resolve
// and one for its load): about half a second of CPU in each of the suite's two hundred test
// processes. From JavaScript, with tap's own recording hook left out as well
// (test/helpers/without-tap-loader.cjs), no hook is registered and there is no such thread. The
// whole tree is written again each time (about a second), so nothing of an older run is left.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const OUT = '.test-build';
/** Folders whose TypeScript is compiled; what a test only reads (fixtures) is linked. */
const COMPILED = ['src', 'test'];
const LINKED_ONLY = new Set([path.join('test', 'fixtures')]);
/** Top-level entries not linked: the compiled folders, git's, and the tree itself. */
const NOT_LINKED = new Set([...COMPILED, '.git', OUT]);
const TYPESCRIPT = /\.tsx?$/;

const root = process.cwd();
fs.rmSync(OUT, { recursive: true, force: true });
fs.mkdirSync(OUT);
for (const name of fs.readdirSync(root)) {
  if (!NOT_LINKED.has(name)) fs.symlinkSync(path.join(root, name), path.join(OUT, name));
}

/** Links the files of `dir` (relative to the root) into the tree; answers its TypeScript modules. */
function mirror(dir) {
  fs.mkdirSync(path.join(OUT, dir));
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory() && !LINKED_ONLY.has(file)) return mirror(file);
    fs.symlinkSync(path.join(root, file), path.join(OUT, file));
    if (entry.isDirectory() || !TYPESCRIPT.test(entry.name) || entry.name.endsWith('.d.ts')) return [];
    // esbuild would write the module through a link of the same name, over the project's file.
    if (fs.existsSync(file.replace(TYPESCRIPT, '.js'))) throw new Error(`build-tests: ${file} and a .js file of the same name`);
    return [file];
  });
}

const result = await esbuild.build({
  entryPoints: COMPILED.flatMap(mirror),
  outdir: OUT,
  outbase: '.',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // What tsconfig.json says for the emit: ES2022 class fields, React's automatic JSX runtime.
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, jsx: 'react-jsx' } },
  sourcemap: 'inline',
  // The map names the file on disk, which coverage reads: no copy of its text in every module.
  sourcesContent: false,
  logLevel: 'silent',
});
if (result.warnings.length > 0) {
  const text = await esbuild.formatMessages(result.warnings, { kind: 'warning' });
  throw new Error(`build-tests: esbuild warned:\n${text.join('\n')}`);
}
