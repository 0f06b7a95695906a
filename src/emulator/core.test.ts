import { EventEmitter } from 'node:events';
import t from 'tap';
import { Bus } from '../bus/bus.js';
import { Timers } from '../clock/timers.js';
import { loadConfig } from '../config/load.js';
import { Keyring } from '../http/auth.js';
import { filePersistence } from '../store/file-persistence.js';
import { memoryPersistence } from '../store/persistence.js';
import { Events, type EventRecord } from '../webhooks/records.js';
import { restoreClock } from './clock.js';
import { eventStreamRoute } from '../control/events.js';
import { createCore, type Core, type CoreOptions } from './core.js';
import { NamespaceRegistry } from './namespaces.js';
import { checkOptions } from './options.js';
import assert from 'node:assert';

function coreOptions(timers: Timers, bus: Bus): CoreOptions {
  const config = loadConfig(undefined);
  const { dispatcherOptions, startChaos, journalSize } = checkOptions({});
  return {
    persistence: memoryPersistence(),
    clockFrom: (store) => restoreClock(store, {}),
    config: () => config,
    keyring: new Keyring(config),
    timers,
    bus,
    dispatcherOptions,
    startChaos,
    rateLimit: false,
    journalSize,
    baseUrl: () => 'http://127.0.0.1:1',
    inject: () => Promise.reject(new Error('not serving')),
    namespaces: new NamespaceRegistry({ max: 0, root: () => assert.fail('no root here'), build: () => Promise.reject(new Error('none here')) }),
  };
}

// Cores share the process's timers: one that is closed must leave no due probe or timer behind,
// or a process that creates and drops cores would hold more with each one.
t.test('a core closed leaves the shared timers as it found them', async (t) => {
  const timers = new Timers();
  const bus = new Bus();
  const before = timers.held();
  for (let i = 0; i < 50; i++) {
    const core = await createCore(coreOptions(timers, bus));
    await core.start();
    if (i === 0) t.ok(timers.held().probes > before.probes && timers.held().timers > before.timers, 'a started core holds probes and its tick');
    core.stop();
    await core.close();
  }
  t.same(timers.held(), before, 'nothing held after 50 cores');
  t.notOk(bus.has('domain'), 'no core still hears the bus');
  await timers.idle();
});

t.test('a core is built around one store, clock and set of engines', async (t) => {
  const timers = new Timers();
  const core = await createCore(coreOptions(timers, new Bus()));
  t.equal(core.app.store, core.store);
  t.equal(core.app.scheduler, core.scheduler);
  t.equal(core.app.webhooks, core.webhooks);
  t.equal(core.app.baseUrl(), 'http://127.0.0.1:1');
  t.notOk(core.app.shutdown.aborted, 'not shut down while it runs');
  await core.start();
  core.stop();
  t.ok(core.app.shutdown.aborted, 'stop ends what waits on the core');
  await core.close();
});

t.test('a clock that cannot be made closes the store and tells the caller', async (t) => {
  let abandoned = 0;
  const options = coreOptions(new Timers(), new Bus());
  await t.rejects(
    createCore({
      ...options,
      clockFrom: () => {
        throw new Error('no clock');
      },
      abandoned: () => abandoned++,
    }),
    { message: 'no clock' },
  );
  t.equal(abandoned, 1);
});

// payemu's close stops every core, then waits for the server's requests to end: a core made, or
// an event stream asked for, after that stop must end too, or the close would wait on it.
t.test('a named core made while payemu stops is stopped as it comes', async (t) => {
  const timers = new Timers();
  const bus = new Bus();
  let build: (core: Core) => void = () => {};
  const built = new Promise<Core>((resolve) => (build = resolve));
  const registry = new NamespaceRegistry({ max: 5, root: () => assert.fail('no root here'), build: () => built });
  const opening = registry.open('w1');
  registry.stopAll();
  const core = await createCore(coreOptions(timers, bus));
  await core.start();
  build(core);
  t.equal(await opening, core);
  t.ok(core.app.shutdown.aborted, 'stopped');
  await registry.closeAll();
});

t.test('an event stream asked for once its core has stopped ends at once', async (t) => {
  const core = await createCore(coreOptions(new Timers(), new Bus()));
  await core.start();
  core.stop();
  const res = Object.assign(new EventEmitter(), {
    writableEnded: false,
    writeHead: () => {},
    write: () => true,
    end() {
      res.writableEnded = true;
    },
  });
  const ctx = { app: core.app, req: new EventEmitter(), res, scope: { source: core.app.config().sources[0]!, mode: 'test' } };
  t.match(await eventStreamRoute.handle(ctx as unknown as Parameters<typeof eventStreamRoute.handle>[0]), { status: 200, streamed: true });
  t.ok(res.writableEnded, 'the stream was ended');
  await core.close();
});

t.test('file-backed, settled events are held as written, and one with no endpoint is told to the listeners of attempts without a read', async (t) => {
  const timers = new Timers();
  const bus = new Bus();
  const core = await createCore({ ...coreOptions(timers, bus), persistence: filePersistence(t.testdir()) });
  await core.start();
  t.teardown(async () => {
    core.stop();
    await core.close();
  });
  const raise = (...ids: string[]) =>
    core.store.transaction((tx) => {
      for (const id of ids) {
        tx.put(Events, {
          id,
          source: 'acme',
          mode: 'test',
          event: 'payment.completed',
          data: { reference: id },
          created_at: 0,
          delivery_status: 'pending',
          next_attempt_at: 0,
        });
        tx.emit({ id, name: 'payment.completed', source: 'acme', mode: 'test', data: {}, at: 0 });
      }
    });
  raise('e1');
  t.ok(core.store.isHeld(Events, 'e1'), 'with nobody listening, an event with no endpoint is held');
  const heard: string[] = [];
  const told: EventRecord[] = [];
  const offDomain = bus.on('domain', ({ id }) => heard.push(`event ${id}`));
  const off = bus.on('webhook.attempt', ({ event, attempt }) => {
    heard.push(`no endpoint ${event.id}`);
    told.push(event);
    t.equal(attempt, null);
  });
  raise('e2', 'e3');
  await timers.idle();
  off();
  offDomain();
  t.same(heard, ['event e2', 'event e3', 'no endpoint e2', 'no endpoint e3'], 'told after the events of the transaction, in their order');
  t.match(told[0], { id: 'e2', delivery_status: 'no_endpoint', next_attempt_at: null, data: { reference: 'e2' } }, 'the record as written');
  t.ok(core.store.isHeld(Events, 'e2') && core.store.isHeld(Events, 'e3'), 'still held: telling them read nothing');
  t.match(core.store.get(Events, 'e3'), { delivery_status: 'no_endpoint', next_attempt_at: null }, 'a read finds it settled');
});
