/**
 * Module hooks (registered by test/helpers/ts-register.js) that run payemu's TypeScript as the
 * tests import it: a `.js` import of a source file resolves to its `.ts` or `.tsx` (the NodeNext
 * way of naming imports), and `.ts`/`.tsx` files are compiled by esbuild, with an inline source
 * map so that stack traces and coverage point at the TypeScript lines.
 *
 * These hooks answer the loads of payemu's TypeScript and of dependencies' ES modules themselves
 * (`shortCircuit`), without passing them on to tap's hooks (@tapjs/processinfo, registered
 * before these). Those record each module as it loads for `tap --changed`, which the suite does
 * not use: they read the file a second time, post its text to the main thread, split it into
 * lines twice and parse its whole source map to learn its source file names, for each of the 400
 * to 600 modules of a test process, about a quarter of a second of CPU in every one. Coverage
 * does not need them: Node keeps each module's inline source map as it compiles it, and tap's
 * coverage writer looks the map up there when the process ends, for the covered files of src/
 * only (the same totals either way).
 *
 * What esbuild wrote is kept in node_modules/.cache/payemu-ts/, under a hash of the file's path
 * and text and of esbuild's version and options: the suite starts some hundreds of processes
 * (test files, the children they fork) that import the same sources, and most then compile
 * nothing and start no esbuild.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { writeCacheFile } from './cache-file.js';

const TYPESCRIPT = /\.(ts|tsx|mts)$/;
const RELATIVE_JS = /^\.\.?\/.*\.js$/;
const CACHE = new URL('../../node_modules/.cache/payemu-ts/', import.meta.url);

/**
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {Function} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (RELATIVE_JS.test(specifier) && parent?.startsWith('file:') && !parent.includes('/node_modules/')) {
    const url = new URL(specifier, parent);
    if (!fs.existsSync(url)) {
      for (const extension of ['.ts', '.tsx']) {
        const source = new URL(`${url.href.slice(0, -'.js'.length)}${extension}`);
        if (fs.existsSync(source)) return { url: source.href, format: 'module', shortCircuit: true };
      }
    }
  }
  return nextResolve(specifier, context);
}

/**
 * @param {string} url
 * @param {{ format?: string }} context
 * @param {Function} nextLoad
 */
export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:')) return nextLoad(url, context);
  if (url.includes('/node_modules/')) {
    // CommonJS, JSON and the rest: Node's own loader, as before.
    if (context.format !== 'module') return nextLoad(url, context);
    return { format: 'module', source: withoutSourceMap(fs.readFileSync(fileURLToPath(url))), shortCircuit: true };
  }
  if (!TYPESCRIPT.test(new URL(url).pathname)) return nextLoad(url, context);
  return { format: 'module', source: await compile(fileURLToPath(url)), shortCircuit: true };
}

const MAGIC = Buffer.from('//# sourceMappingURL=');

/**
 * A dependency's ES module (its text) without its `//# sourceMappingURL=` comment. tap's coverage turns on
 * Node's source maps in every test process, and Node then reads and parses the map each module
 * names as it loads it: tap's own packages alone are some 170 modules with maps, about a sixth of
 * a second of CPU in every one of the suite's test processes. Coverage counts src/ only
 * (coverage-map.js) and never reads them; a stack frame in a dependency names the line of its
 * built .js file, the one on disk. CommonJS modules (`require`) load outside these hooks and keep
 * theirs: a dozen, not worth a require hook.
 *
 * @param {Buffer} source
 */
function withoutSourceMap(source) {
  // The comment is the module's last line: look at its tail only.
  const at = source.lastIndexOf(MAGIC, -1);
  if (at === -1 || at < source.length - 4096) return source;
  return source.subarray(0, at);
}

const require = createRequire(import.meta.url);
/** esbuild's version, part of each cached file's key; esbuild itself is loaded on a miss only. */
const ESBUILD_VERSION = /** @type {{ version: string }} */ (require('esbuild/package.json')).version;

/** @param {string} file */
async function compile(file) {
  // Synchronous reads: this thread does nothing else meanwhile, and they cost less CPU.
  const text = fs.readFileSync(file, 'utf8');
  const options = {
    loader: /** @type {'ts' | 'tsx'} */ (file.endsWith('.tsx') ? 'tsx' : 'ts'),
    format: /** @type {'esm'} */ ('esm'),
    target: 'node20',
    // What tsconfig.json says for the emit: ES2022 class fields, React's automatic JSX runtime.
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, jsx: /** @type {'react-jsx'} */ ('react-jsx') } },
    sourcemap: /** @type {'inline'} */ ('inline'),
    // The map names the file on disk, which coverage reads: no copy of its text, decoded in every
    // process that loads it and written into each test file's coverage (a third of its bytes).
    sourcesContent: false,
    sourcefile: file,
  };
  const key = createHash('sha256')
    .update(JSON.stringify([ESBUILD_VERSION, options, text]))
    .digest('hex');
  const cached = new URL(`${key}.js`, CACHE);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    // Not compiled yet.
  }
  const { transform } = await import('esbuild');
  const { code } = await transform(text, options);
  writeCacheFile(cached, code);
  return code;
}
