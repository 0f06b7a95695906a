import t from 'tap';
import { assertError, emulator } from './helpers/emulator.js';

t.test('GET /_payemu/clock shows the virtual time', async (t) => {
  const e = await emulator(t, { clockStart: '2030-01-01T00:00:00Z', freezeClock: true });
  const res = await e.api.get('/_payemu/clock');
  t.same(res.body, { now: '2030-01-01T00:00:00.000000Z', offset_seconds: res.body.offset_seconds, frozen: true });
  assertError(t, await e.anon.get('/_payemu/clock'), 401);
});

t.test('POST /_payemu/clock/advance by a duration or to a time; forward only', async (t) => {
  const e = await emulator(t, { clockStart: '2030-01-01T00:00:00Z', freezeClock: true });
  const steps: [unknown, string][] = [
    [{ by: '30d' }, '2030-01-31T00:00:00.000000Z'],
    [{ by: '12h' }, '2030-01-31T12:00:00.000000Z'],
    [{ by: '90m' }, '2030-01-31T13:30:00.000000Z'],
    [{ by: 30 }, '2030-01-31T13:30:30.000000Z'],
    [{ to: '2030-02-01T00:00:00Z' }, '2030-02-01T00:00:00.000000Z'],
  ];
  for (const [body, now] of steps) {
    const res = await e.api.post('/_payemu/clock/advance', body);
    t.equal(res.status, 200);
    t.equal(res.body.now, now, JSON.stringify(body));
    t.same(res.body.ran, {});
    t.same(res.body.items, []);
  }
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2030-02-01T00:00:00.000000Z');
  t.equal(e.clock.now(), '2030-02-01T00:00:00.000000Z', 'one clock for the API and the library');

  for (const body of [
    {},
    { by: 'soon' },
    { by: -5 },
    { by: '5y' },
    { to: 'tomorrow' },
    { to: '2029-01-01T00:00:00Z' },
    { by: '1d', to: '2031-01-01' },
    { by: true },
  ]) {
    assertError(t, await e.api.post('/_payemu/clock/advance', body), 422);
  }
  t.equal((await e.api.get('/_payemu/clock')).body.now, '2030-02-01T00:00:00.000000Z', 'refusals moved nothing');
});

t.test('an unfrozen clock follows real time plus the offset', async (t) => {
  const e = await emulator(t);
  const before = Date.parse((await e.api.get('/_payemu/clock')).body.now);
  const res = await e.api.post('/_payemu/clock/advance', { by: '1d' });
  t.equal(res.body.frozen, false);
  t.equal(res.body.offset_seconds, 86400);
  t.ok(Date.parse(res.body.now) - before >= 86_400_000);
});

t.test('due work runs in time order, each at its own timestamp', async (t) => {
  const e = await emulator(t, { clockStart: '2030-01-01T00:00:00Z', freezeClock: true });
  const first = await e.api.post('/v1/sessions', { amount: 1 });
  await e.api.post('/_payemu/clock/advance', { by: '1h' });
  const second = await e.api.post('/v1/sessions', { amount: 1 });
  const res = await e.api.post('/_payemu/clock/advance', { by: '3d' });
  t.same(res.body.ran, { 'session.expired': 2 });
  t.same(
    res.body.items.map((i: { id: string; at: string }) => [i.id, i.at]),
    [
      [first.body.data.id, '2030-01-02T00:00:00.000000Z'],
      [second.body.data.id, '2030-01-02T01:00:00.000000Z'],
    ],
  );
});

t.test('a saved clock continues on restart; --clock-start only moves it forward', async (t) => {
  const { startEmulator } = await import('../src/emulator.js');
  const dataDir = t.testdir();
  const at = async (options: Parameters<typeof startEmulator>[0]) => {
    const e = await startEmulator({ port: 0, inMemory: false, dataDir, freezeClock: true, ...options });
    const now = e.clock.now();
    await e.close();
    return new Date(now).toISOString();
  };
  t.equal(await at({ clockStart: '2030-06-01T00:00:00Z' }), '2030-06-01T00:00:00.000Z', 'a new data directory starts there');
  t.equal(await at({}), '2030-06-01T00:00:00.000Z', 'a restart continues where it stopped');
  t.equal(await at({ clockStart: '2030-01-01T00:00:00Z' }), '2030-06-01T00:00:00.000Z', 'an earlier start does not move it back');
  t.equal(await at({ clockStart: '2031-01-01T00:00:00Z' }), '2031-01-01T00:00:00.000Z', 'a later one moves it forward');
});
