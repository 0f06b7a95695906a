// Writes dist/bin/ (npm run build runs it): the command line bundled into two files.
//
// - dist/bin/cli.cjs: every command and the whole emulator, bundled as CommonJS into one script
//   that bin/payemu.js compiles with V8's code cache (src/cli/cached-script.ts), so that a start
//   reuses the code the last one compiled instead of compiling it again, on Node 20 too. It is
//   a function expression, not a module: the loader gives it `require`, `module`, the URL that
//   `import.meta.url` stands for (`__payemuUrl`) and the `import()` it uses for ES modules
//   (`__payemuImport`). The config's two validators are built into it (see VALIDATORS).
// - dist/bin/tui.js: the terminal UI, an ES module imported on a TTY only. Ink cannot be
//   require()d (its modules use top-level await), so the UI stays out of the script.
//
// Left out of both, loaded when needed: ink and react, got, ajv, chokidar.
import fs from 'node:fs';
import * as esbuild from 'esbuild';
import { EVENT_NAMES } from '../dist/catalogue.js';
import { OPERATIONS } from '../dist/control/operations.js';
import { configSchema, userConfigSchema } from '../dist/config/schema.js';
import { validatorFile } from '../dist/lib/precompiled.js';

const OUT = new URL('../dist/bin/', import.meta.url);
const EXTERNAL = ['ink', 'react', 'got', 'ajv', 'ajv-formats', 'chokidar'];
const TUI = '../ui/tui.js';
/**
 * How the script begins: a function of what src/cli/cached-script.ts passes it, in this order.
 * Strict, as the ES modules it is built from are.
 */
const PARAMETERS = "(function (exports, require, module, __filename, __dirname, __payemuUrl, __payemuImport) {'use strict';";

// The config's validators, which scripts/validators.js wrote (it runs first): built into the
// script, in place of src/lib/bundled-validators.ts's empty table.
const VALIDATORS = [userConfigSchema, configSchema].map((schema) => validatorFile('config', schema));
for (const file of VALIDATORS) {
  if (!fs.existsSync(new URL(`../dist/lib/validators/${file}`, import.meta.url))) throw new Error(`build-cli: dist/lib/validators/${file} is missing: run scripts/validators.js first`);
}
const bundledValidators = {
  name: 'bundled-validators',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]lib[\\/]bundled-validators\.ts$/ }, () => ({
      contents: `export const bundledValidators = {\n${VALIDATORS.map((f) => `  ${JSON.stringify(f)}: () => require(${JSON.stringify(`../../dist/lib/validators/${f}`)}),`).join('\n')}\n};\n`,
      loader: 'js',
      resolveDir: new URL('../src/lib/', import.meta.url).pathname,
    }));
  },
};

// The catalogue's event names, which the commands' help and checks list (src/cli/event-names.ts):
// the list itself in the script, so that a start does not evaluate the catalogue to define them.
const eventNames = {
  name: 'event-names',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]cli[\\/]event-names\.ts$/ }, () => ({
      contents: `export const EVENT_NAMES = ${JSON.stringify(EVENT_NAMES)};\n`,
      loader: 'js',
    }));
  },
};

// What the client takes of the control operations (src/client/client.ts imports their list): each
// one's method, path and client mapping, and nothing of what runs them on the server. Without it
// every command that talks to payemu would evaluate the whole server (about 200 modules) at
// start. The mappings travel as their source text, so they may use only their parameters
// (src/control/operation.ts says so); the CLI tests call every method through this script.
const clientOperations = {
  name: 'client-operations',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/control\/operations\.js$/ }, (args) =>
      /[\\/]src[\\/]client[\\/]client\.ts$/.test(args.importer) ? { path: 'client-operations', namespace: 'client-operations' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'client-operations' }, () => ({
      contents: `export const OPERATIONS = [\n${OPERATIONS.filter((op) => op.client)
        .map((op) => {
          const { name, args, result } = op.client;
          const fields = [`name: ${JSON.stringify(name)}`, args && `args: ${args.toString()}`, result && `result: ${result.toString()}`].filter(Boolean);
          return `  { method: ${JSON.stringify(op.method)}, path: ${JSON.stringify(op.path)}, client: { ${fields.join(', ')} } },`;
        })
        .join('\n')}\n];\n`,
      loader: 'js',
    }));
  },
};

fs.rmSync(OUT, { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  external: EXTERNAL,
  logLevel: 'silent',
  metafile: true,
  write: false,
};

const [script, tui] = await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/bin/cli.cjs',
    format: 'cjs',
    define: { 'import.meta.url': '__payemuUrl' },
    plugins: [
      bundledValidators,
      eventNames,
      clientOperations,
      {
        name: 'tui-apart',
        setup(build) {
          build.onResolve({ filter: /\/ui\/tui\.js$/ }, (args) => (args.path === TUI ? { path: './tui.js', external: true } : undefined));
        },
      },
    ],
  }),
  esbuild.build({
    ...common,
    entryPoints: ['src/ui/tui.tsx'],
    outfile: 'dist/bin/tui.js',
    format: 'esm',
    plugins: [clientOperations],
  }),
]);
for (const result of [script, tui]) {
  if (result.warnings.length > 0) {
    const text = await esbuild.formatMessages(result.warnings, { kind: 'warning' });
    throw new Error(`build-cli: esbuild warned:\n${text.join('\n')}`);
  }
}

// A script's import() would need vm's experimental loader, which prints a warning at every
// run: each one, all of them external (what esbuild's metafile lists), calls __payemuImport.
const [code] = script.outputFiles;
const dynamic = Object.values(script.metafile.outputs)
  .flatMap((output) => output.imports)
  .filter((i) => i.kind === 'dynamic-import')
  .map((i) => i.path);
let text = code.text;
for (const specifier of new Set(dynamic)) {
  const call = `import(${JSON.stringify(specifier)})`;
  if (!text.includes(call)) throw new Error(`build-cli: ${call} is not in the script as esbuild printed it`);
  text = text.replaceAll(call, `__payemuImport(${JSON.stringify(specifier)})`);
}
const left = text.match(/\bimport\s*\(/);
if (left) throw new Error(`build-cli: the script still holds an import() at ${left.index}: ${text.slice(left.index, left.index + 80)}`);
// ASCII only, so that the loader reads it as latin1 into a string of one byte per character
// (V8 keeps a script with any other character at two bytes each: 1.5 MB instead of 0.77).
// esbuild escapes all but those in template literals (the hosted pages' `·`, `×`, `—`): here
// they become \u escapes, which mean the same there (the templates' raw text, which changes,
// is read by no tag of payemu's), as in strings, regular expressions and comments.
if (/(String\.raw|\.raw\b\s*\[)/.test(text)) throw new Error('build-cli: a template tag reads .raw; escaping would change it');
text = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
if (/\brequire\(\s*["'](ink|react)/.test(text)) throw new Error('build-cli: the script require()s ink or react; they belong to dist/bin/tui.js');

fs.mkdirSync(OUT, { recursive: true });
// The function the loader calls, written whole: compiled as read, without a copy joined in memory.
fs.writeFileSync(code.path, `${PARAMETERS}${text}\n})`);
for (const file of tui.outputFiles) fs.writeFileSync(file.path, file.contents);
