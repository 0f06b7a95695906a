// The layout of src/ holds: no import breaks a "never" pair of test/layout.json (a copy of the
// parts and nevers of the architecture whiteboard, ../shared/architecture.json, which users do
// not have), no engine part imports the composition root, no file-level import circles, and no
// circles between the folders of src/resources/ (one module each).
// Imports are read with TypeScript's parser: `import`, `import type`, `export ... from`, bare
// `import './x.js'` and `import('./x.js')`, relative specifiers only (packages are not parts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';

interface Layout {
  parts: Record<string, string[]>;
  never: [from: string, to: string, reason: string][];
  root: { files: string[]; closedTo: string[]; reason: string };
  /** Folders whose sub-folders may not import each other in a circle, even through different files. */
  folderCircles: { under: string[]; reason: string };
}

/** One import of one file: `file` (repository-relative, / separators) says `specifier`, which is `target`. */
interface Edge {
  file: string;
  specifier: string;
  target: string;
  typeOnly: boolean;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LAYOUT: Layout = JSON.parse(fs.readFileSync(new URL('./layout.json', import.meta.url), 'utf8'));

/** Source files of src/: .ts and .tsx, without the tests and their support files. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.tsx?$/.test(entry.name) && !/\.test(-support)?\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out.sort();
}

/** The module specifiers of a source text, with whether each is erased at run time. */
export function specifiers(fileName: string, text: string): { specifier: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) found.push({ specifier: arg.text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      // `import('./x.js').Thing` in a type.
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names: `./x.js` is x.ts or x.tsx (NodeNext), `./x.json` itself. */
function resolve(from: string, specifier: string, exists: (file: string) => boolean): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const stem = base.replace(/\.(m|c)?jsx?$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.d.ts`];
  return candidates.find(exists);
}

/** The part a file belongs to (the longest folder that holds it), or undefined: root or shared. */
export function partOf(file: string, layout: Pick<Layout, 'parts'>): string | undefined {
  let best: { part: string; length: number } | undefined;
  for (const [part, folders] of Object.entries(layout.parts)) {
    for (const folder of folders) {
      if (file.startsWith(folder) && folder.length > (best?.length ?? -1)) best = { part, length: folder.length };
    }
  }
  return best?.part;
}

/** The import edges of a set of files (name -> text); a relative specifier that names no file is a problem too. */
export function edgesOf(files: Map<string, string>, exists: (file: string) => boolean): { edges: Edge[]; unresolved: string[] } {
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const [file, text] of files) {
    for (const { specifier, typeOnly } of specifiers(file, text)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(file, specifier, exists);
      if (target === undefined) unresolved.push(`${file}: '${specifier}' names no file`);
      else edges.push({ file, specifier, target, typeOnly });
    }
  }
  return { edges, unresolved };
}

/** Whether a file is the composition root: one of `files`, or in one of its folders (a name ending in /). */
export function inRoot(file: string, files: string[]): boolean {
  return files.some((root) => (root.endsWith('/') ? file.startsWith(root) : file === root));
}

/** Every import that breaks a never pair or reaches the composition root from a closed part. */
export function violations(edges: Edge[], layout: Layout): string[] {
  const never = new Map(layout.never.map(([from, to, reason]) => [`${from} -> ${to}`, reason]));
  const found: string[] = [];
  for (const edge of edges) {
    const from = partOf(edge.file, layout);
    if (from === undefined) continue;
    const how = `${edge.file} imports${edge.typeOnly ? ' type' : ''} '${edge.specifier}' (${edge.target})`;
    const to = partOf(edge.target, layout);
    const reason = to === undefined ? undefined : never.get(`${from} -> ${to}`);
    if (reason !== undefined) found.push(`${how}: ${from} never imports ${to}, ${reason}`);
    if (layout.root.closedTo.includes(from) && inRoot(edge.target, layout.root.files)) {
      found.push(`${how}: ${from} never imports the composition root, ${layout.root.reason}`);
    }
  }
  return found;
}

/** Where each node's imports lead (each target once). */
function nextOf(edges: Edge[]): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const { file, target } of edges) {
    const list = next.get(file) ?? [];
    if (!list.includes(target)) list.push(target);
    next.set(file, list);
  }
  return next;
}

/** The strongly connected groups of nodes that hold a circle (Tarjan), each sorted. */
function circleGroups(next: Map<string, string[]>): string[][] {
  const nodes = [...new Set([...next].flatMap(([file, targets]) => [file, ...targets]))].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (next.get(v) ?? []).includes(v)) groups.push(group.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) connect(v);
  return groups;
}

/** A shortest circle through a group's first node, inside the group: `[a, b, a]`. */
function shortestCircle(group: string[], next: Map<string, string[]>): string[] {
  const inGroup = new Set(group);
  const start = group[0]!;
  // Breadth-first from start back to start, inside the group.
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const w of next.get(v) ?? []) {
      if (!inGroup.has(w)) continue;
      if (w === start) {
        const chain: string[] = [];
        for (let at: string | undefined = v; at !== undefined && at !== start; at = cameFrom.get(at)) chain.unshift(at);
        return [start, ...chain, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  throw new Error(`${group.join(', ')} is not a circle`);
}

/**
 * The import circles: one per strongly connected group of files (Tarjan), named by a shortest
 * circle through its first file, `a.ts -> b.ts -> a.ts`.
 */
export function circles(edges: Edge[]): string[] {
  const next = nextOf(edges);
  return circleGroups(next)
    .map((group) => {
      const circle = shortestCircle(group, next);
      const more = group.length > circle.length - 1 ? ` (and ${group.length - circle.length + 1} more files in circles with these)` : '';
      return `${circle.join(' -> ')}${more}`;
    })
    .sort();
}

/** The folder right under `under` that holds `file` (`src/http/`), or the file itself when it sits in `under`; undefined outside `under`. */
function roomOf(file: string, under: string): string | undefined {
  if (!file.startsWith(under)) return undefined;
  const rest = file.slice(under.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? file : `${under}${rest.slice(0, slash)}/`;
}

/** The imports between the rooms of `under` (each edge's file and target replaced by their rooms), with the file-level imports each stands for. */
function roomEdges(edges: Edge[], under: string): Edge[] {
  const between: Edge[] = [];
  for (const edge of edges) {
    const from = roomOf(edge.file, under);
    const to = roomOf(edge.target, under);
    if (from !== undefined && to !== undefined && from !== to) between.push({ ...edge, file: from, target: to });
  }
  return between;
}

/**
 * The import circles between the sub-folders of `under` (src/resources/payments/ and
 * src/resources/refunds/ importing each other through any of their files): each file stands for
 * its sub-folder, a file directly in `under` for itself.
 */
export function folderCircles(edges: Edge[], under: string): string[] {
  return circles(roomEdges(edges, under));
}

/** A circle between rooms: the rooms of its group, and a message naming the files of each edge of one circle through them. */
export interface RoomCircle {
  rooms: string[];
  message: string;
}

/**
 * The circles between the rooms of `under` (`src/`: each top-level folder, and each top-level
 * file on its own), type-only imports included, each named by a shortest circle whose every
 * step lists the imports that make it: `src/a/ -> src/b/ -> src/a/ [src/a/ -> src/b/: src/a/x.ts
 * imports type src/b/y.ts; src/b/ -> src/a/: ...]`.
 */
export function roomCircles(edges: Edge[], under: string): RoomCircle[] {
  const between = roomEdges(edges, under);
  const next = nextOf(between);
  return circleGroups(next)
    .map((rooms) => {
      const circle = shortestCircle(rooms, next);
      const steps = circle.slice(1).map((to, i) => {
        const from = circle[i]!;
        const imports = edges
          .filter((edge) => roomOf(edge.file, under) === from && roomOf(edge.target, under) === to)
          .map((edge) => `${edge.file} imports${edge.typeOnly ? ' type' : ''} ${edge.target}`);
        return `${from} -> ${to}: ${[...new Set(imports)].join(', ')}`;
      });
      const others = rooms.filter((room) => !circle.includes(room));
      const more = others.length > 0 ? ` (in circles with these too: ${others.join(', ')})` : '';
      return { rooms, message: `${circle.join(' -> ')} [${steps.join('; ')}]${more}` };
    })
    .sort((a, b) => (a.message < b.message ? -1 : 1));
}

const exists = (file: string) => fs.existsSync(path.join(ROOT, file)) && fs.statSync(path.join(ROOT, file)).isFile();
const files = new Map(sourceFiles('src').map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]));
const { edges, unresolved } = edgesOf(files, exists);

t.test('the layout table names the folders of src/', async (t) => {
  t.ok(files.size > 50, `${files.size} source files read`);
  const partNames = new Set(Object.keys(LAYOUT.parts));
  for (const [from, to] of LAYOUT.never) t.ok(partNames.has(from) && partNames.has(to), `never ${from} -> ${to}: both are parts`);
  for (const part of LAYOUT.root.closedTo) t.ok(partNames.has(part), `${part} is a part`);
  for (const file of LAYOUT.root.files) t.ok(file.endsWith('/') ? fs.existsSync(path.join(ROOT, file)) : exists(file), `${file} exists`);
  // A part whose folder is not there yet (src/client/ while it is built) has no files: nothing to check.
  for (const [part, folders] of Object.entries(LAYOUT.parts)) {
    const missing = folders.filter((folder) => !fs.existsSync(path.join(ROOT, folder)));
    if (missing.length > 0) t.comment(`${part}: ${missing.join(', ')} not there yet`);
  }
  t.same(unresolved, [], 'every relative import names a file');
});

t.test('no import breaks the layout', async (t) => {
  const found = violations(edges, LAYOUT);
  for (const problem of found) t.fail(problem);
  if (found.length === 0) t.pass(`${edges.length} imports between ${files.size} files keep the layout`);
});

t.test('no import circles in src/', async (t) => {
  const found = circles(edges);
  for (const circle of found) t.fail(`import circle: ${circle}`);
  if (found.length === 0) t.pass(`no circle among ${files.size} files`);
});

t.test('no import circles between the resource folders', async (t) => {
  for (const under of LAYOUT.folderCircles.under) {
    const found = folderCircles(edges, under);
    for (const circle of found) t.fail(`folder circle: ${circle}: ${LAYOUT.folderCircles.reason}`);
    if (found.length === 0) t.pass(`no circle between the folders of ${under}`);
  }
});

t.test('no import circles between the top-level folders of src/, type-only imports included', async (t) => {
  const found = roomCircles(edges, 'src/');
  for (const { message } of found) t.fail(`folder circle: ${message}`);
  if (found.length === 0) t.pass('no circle between the top-level folders of src/');
});

t.test('the checks find what they look for', async (t) => {
  // A small made-up tree: the store reaching HTTP and the app, a type-only circle, a missing file.
  const fake = new Map([
    ['src/store/a.ts', "import { x } from '../http/b.js';\nimport type { App } from '../app.js';\n// import { y } from '../resources/c.js';\n"],
    ['src/http/b.ts', "export { z } from './c.js';\nexport const x = 1;\n"],
    ['src/http/c.ts', "import type { x } from './b.js';\nconst later = () => import('../lib/d.js');\n"],
    ['src/app.ts', "import './store/a.js';\n"],
  ]);
  const { edges, unresolved } = edgesOf(fake, (file) => fake.has(file));
  t.same(unresolved, ["src/http/c.ts: '../lib/d.js' names no file"], 'a dynamic import is read, and a missing file is named');
  t.same(
    violations(edges, LAYOUT),
    [
      "src/store/a.ts imports '../http/b.js' (src/http/b.ts): Store never imports HTTP, storage knows nothing of HTTP",
      "src/store/a.ts imports type '../app.js' (src/app.ts): Store never imports the composition root, the engine is composed by the root, it does not reach back into it",
    ],
    'a never pair and the composition root, type-only too; a commented-out import is not read',
  );
  t.same(
    circles(edges),
    ['src/app.ts -> src/store/a.ts -> src/app.ts', 'src/http/b.ts -> src/http/c.ts -> src/http/b.ts'],
    'both circles, a type-only one too',
  );
  const resources = new Map([
    ['src/resources/a/x.ts', "import { y } from '../b/y.js';\n"],
    ['src/resources/b/y.ts', 'export const y = 1;\n'],
    ['src/resources/b/z.ts', "import type { X } from '../a/w.js';\n"],
    ['src/resources/a/w.ts', 'export type X = 1;\n'],
  ]);
  const apart = edgesOf(resources, (file) => resources.has(file)).edges;
  t.same(circles(apart), [], 'no file-level circle');
  t.same(folderCircles(apart, 'src/resources/'), ['src/resources/a/ -> src/resources/b/ -> src/resources/a/'], 'a folder-level circle through different files');
  const rooms = new Map([
    ['src/store/lock.ts', "import { stopwatch } from '../clock/clock.js';\n"],
    ['src/clock/clock.ts', 'export const stopwatch = 1;\n'],
    ['src/clock/scheduler.ts', "import type { Store } from '../store/store.js';\nimport type { App } from '../app.js';\n"],
    ['src/store/store.ts', 'export type Store = 1;\n'],
    ['src/app.ts', "import { stopwatch } from './clock/clock.js';\nexport type App = 1;\n"],
  ]);
  t.same(
    roomCircles(edgesOf(rooms, (file) => rooms.has(file)).edges, 'src/'),
    [
      {
        rooms: ['src/app.ts', 'src/clock/', 'src/store/'],
        message:
          'src/app.ts -> src/clock/ -> src/app.ts [src/app.ts -> src/clock/: src/app.ts imports src/clock/clock.ts; src/clock/ -> src/app.ts: src/clock/scheduler.ts imports type src/app.ts] (in circles with these too: src/store/)',
      },
    ],
    'circles between top-level folders through different files, type-only too, each step with its files; a top-level file is a room of its own',
  );
  t.equal(partOf('src/clientele/x.ts', { parts: { Client: ['src/client/'] } }), undefined, 'a folder is matched whole');
  t.equal(partOf('src/bus/events.ts', LAYOUT), 'Bus');
  t.equal(partOf('src/lib/money.ts', LAYOUT), undefined, 'src/lib/ is shared');
  t.ok(inRoot('src/emulator/clock.ts', LAYOUT.root.files), 'a file in a folder of the composition root is the root');
  t.notOk(inRoot('src/emulatorx.ts', ['src/emulator/']), 'a folder is matched whole');
});

/** Real-time waits are made in src/clock/ only (timers.ts), so `idle()` knows about them and a stop cancels them. */
const TIMER_CALLS = new Set(['setTimeout', 'setInterval', 'setImmediate']);
const MAY_WAIT = ['src/clock/'];

/** Where a source text names a real-time timer function (comments and strings are not read). */
export function timerCalls(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && TIMER_CALLS.has(node.text)) {
      found.push(`${fileName}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

t.test('no timer outside src/clock/: every real-time wait goes through Timers', async (t) => {
  const found = [...files].filter(([file]) => !MAY_WAIT.some((folder) => file.startsWith(folder))).flatMap(([file, text]) => timerCalls(file, text));
  for (const call of found) t.fail(`${call}: use the Timers of src/clock/timers.ts (app.timers)`);
  if (found.length === 0) t.pass('no setTimeout, setInterval or setImmediate outside src/clock/');
  t.same(
    timerCalls('src/x.ts', "// setTimeout(f)\nconst s = 'setImmediate(f)';\nglobalThis.setInterval(f, 1);\nsetTimeout(f, 0).unref();\n"),
    ['src/x.ts:3 setInterval', 'src/x.ts:4 setTimeout'],
    'the check finds calls, not comments or strings',
  );
});
