// Writes dist/'s JavaScript (npm run build runs it first): every module of src/ but the tests,
// one file each, types stripped by esbuild, beside where tsc puts their declarations.
//
// Why not tsc's own emit: tsc cannot write a module without working out the types it declares
// (the wire types derived from the schemas are deep), about 10 s of one core before `npm test`
// runs its first test, where esbuild writes the same modules in under a second. Both only strip
// the types; `npm run typecheck` checks them, and `npm run build` still has tsc write the
// declarations (the `types` of the package) after this.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

const SRC = 'src';
/** What tsconfig.build.json leaves out: the tests beside the code and their support files. */
const TEST = /\.test(-support)?\.tsx?$/;

/** @param {string} dir @returns {string[]} */
function modules(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return modules(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !TEST.test(entry.name) ? [file] : [];
  });
}

const result = await esbuild.build({
  entryPoints: modules(SRC),
  outdir: 'dist',
  outbase: SRC,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // What tsconfig.json says for the emit: ES2022 class fields, React's automatic JSX runtime.
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, jsx: 'react-jsx' } },
  logLevel: 'silent',
});
if (result.warnings.length > 0) {
  const text = await esbuild.formatMessages(result.warnings, { kind: 'warning' });
  throw new Error(`build-dist: esbuild warned:\n${text.join('\n')}`);
}
