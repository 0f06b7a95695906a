import fs from 'node:fs';
import t from 'tap';
import { EVENT_NAMES } from '../src/bus/events.js';
import { COLLECTIONS, JOB_KINDS, ROUTES } from '../src/catalogue.js';

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
    // Without a key: health, and the OpenAPI document (it holds no data).
    const open = route.path === '/_payemu/health' || route.path === '/_payemu/openapi.json';
    if (route.path.startsWith('/_payemu/') && !open) t.equal(route.auth, 'key', `${route.path} needs a key`);
  }
});

t.test('timed jobs work on collections of the catalogue', async (t) => {
  const names = new Set(COLLECTIONS.map((c) => c.name));
  for (const kind of JOB_KINDS as unknown as { kind: string; collection: { name: string } }[]) {
    t.ok(names.has(kind.collection.name), `${kind.kind} -> ${kind.collection.name}`);
  }
});

const spec = new URL('../../shared/SPEC.md', import.meta.url);
t.test("the event catalogue is SPEC.md's event table", { skip: fs.existsSync(spec) ? false : 'SPEC.md is not beside the project' }, async (t) => {
  const text = fs.readFileSync(spec, 'utf8');
  const table = text.slice(text.indexOf('| Event | Fires when |'));
  const names = [...table.matchAll(/^\| ([a-z]+\.[a-z_]+) \|/gm)].map((m) => m[1]);
  t.same([...EVENT_NAMES], names);
});
