import fs from 'node:fs';
import t from 'tap';
import { COLLECTIONS, CONTROL_ROUTES, DASHBOARD_ROUTES, EVENT_NAMES, EVENTS, JOB_KINDS, MODULES, PAGE_ROUTES, ROUTES } from '../src/catalogue.js';

/** The names of the things in `lists` that stand in more than one list, or twice in one. */
function repeated(lists: readonly (readonly string[])[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const name of lists.flat()) (seen.has(name) ? twice : seen).add(name);
  return [...twice];
}

t.test('the catalogue is a list of modules, each named once, one per resource folder', async (t) => {
  t.same(repeated([MODULES.map((m) => m.name)]), [], 'module names are unique');
  const folders = fs
    .readdirSync(new URL('../src/resources/', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'common')
    .map((entry) => entry.name)
    .sort();
  for (const folder of folders) {
    t.ok(fs.existsSync(new URL(`../src/resources/${folder}/index.ts`, import.meta.url)), `src/resources/${folder}/ exports its module from index.ts`);
  }
  const names = new Set(MODULES.map((m) => m.name));
  t.same(
    folders.filter((folder) => !names.has(folder)),
    [],
    'every resource folder is listed',
  );
});

t.test('every collection, route, kind of due work and event belongs to exactly one module', async (t) => {
  t.same(repeated(MODULES.map((m) => m.collections.map((c) => c.name))), [], 'no collection in two modules');
  t.same(repeated(MODULES.map((m) => m.jobs.map((k) => k.kind))), [], 'no kind of due work in two modules');
  t.same(repeated(MODULES.map((m) => Object.keys(m.events))), [], 'no event in two modules');
  t.same(
    repeated([MODULES.flatMap((m) => m.routes), CONTROL_ROUTES, PAGE_ROUTES].map((list) => list.map((r) => `${r.method} ${r.path}`))),
    [],
    'no route twice',
  );
  t.same(
    MODULES.flatMap((m) => Object.keys(m.events)),
    [...EVENT_NAMES],
    "the catalogue's events are the modules' events, in the modules' order",
  );
  for (const m of MODULES)
    for (const [name, data] of Object.entries(m.events)) t.equal(EVENTS[name as keyof typeof EVENTS], data, `${m.name}: ${name} has its schema`);
  t.equal(COLLECTIONS.length, new Set(MODULES.flatMap((m) => m.collections)).size, "COLLECTIONS are the modules' collections");
  t.equal(JOB_KINDS.length, new Set(MODULES.flatMap((m) => m.jobs)).size, "JOB_KINDS are the modules' kinds");
  t.equal(
    ROUTES.length,
    MODULES.flatMap((m) => m.routes).length + CONTROL_ROUTES.length + PAGE_ROUTES.length + DASHBOARD_ROUTES.length,
    "ROUTES are the modules', control, page and dashboard routes",
  );
});

t.test('each list serves its part: /v1 from the modules, /_payemu/ from control, pages from pages, the dashboard under /_payemu/dashboard', async (t) => {
  for (const m of MODULES) for (const r of m.routes) t.ok(r.path.startsWith('/v1/'), `${m.name}: ${r.method} ${r.path}`);
  for (const r of CONTROL_ROUTES) t.ok(r.path.startsWith('/_payemu/'), `control: ${r.method} ${r.path}`);
  for (const r of PAGE_ROUTES) t.ok(!r.path.startsWith('/v1/') && !r.path.startsWith('/_payemu/'), `page: ${r.method} ${r.path}`);
  for (const r of DASHBOARD_ROUTES) t.ok(r.path === '/_payemu/dashboard' || r.path.startsWith('/_payemu/dashboard/'), `dashboard: ${r.method} ${r.path}`);
});

t.test('every route is declared once', async (t) => {
  const seen = new Set<string>();
  for (const route of ROUTES) {
    const key = `${route.method} ${route.path}`;
    t.notOk(seen.has(key), key);
    seen.add(key);
  }
});

t.test('every /v1 and control-plane route that takes a body has a schema; pages take forms', async (t) => {
  for (const route of ROUTES) {
    if (route.auth !== 'key' || route.method === 'GET' || route.method === 'DELETE') continue;
    // Actions without a body (capture's amount is optional, void has none) still declare one.
    t.ok(route.body, `${route.method} ${route.path} declares a body schema`);
  }
  for (const route of ROUTES) {
    if (route.path.startsWith('/v1/')) t.equal(route.auth, 'key', `${route.path} needs a key`);
    // Without a key: health, the OpenAPI document (it holds no data), and the dashboard (it serves
    // the person at this machine; its forms carry CSRF tokens instead).
    const dashboard = route.path === '/_payemu/dashboard' || route.path.startsWith('/_payemu/dashboard/');
    const open = route.path === '/_payemu/health' || route.path === '/_payemu/openapi.json' || dashboard;
    if (route.path.startsWith('/_payemu/') && !open) t.equal(route.auth, 'key', `${route.path} needs a key`);
  }
});

t.test('timed jobs work on collections of their own module', async (t) => {
  const names = new Set(COLLECTIONS.map((c) => c.name));
  for (const m of MODULES) {
    const own = new Set(m.collections.map((c) => c.name));
    for (const kind of m.jobs) t.ok(own.has(kind.collection.name), `${m.name}: ${kind.kind} -> ${kind.collection.name}`);
  }
  for (const kind of JOB_KINDS) {
    t.ok(names.has(kind.collection.name), `${kind.kind} -> ${kind.collection.name}`);
  }
});
