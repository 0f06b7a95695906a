import t from 'tap';
import { Bus } from '../bus/bus.js';
import { collection, type Change } from '../store/collection.js';
import { memoryPersistence, type Persistence } from '../store/persistence.js';
import { Store } from '../store/store.js';
import { createClock } from './clock.js';
import { Scheduler, type JobKind, type SchedulerContext } from './scheduler.js';
import { Timers } from './timers.js';

/** A record due once at `due`, done (`runs` + 1) when its job runs. */
interface Task {
  id: string;
  due: number;
  runs: number;
}
const Tasks = collection<Task>('tasks');
const MeetAt = 1_000_000;

const kind: JobKind<Task> = {
  kind: 'task.run',
  collection: Tasks,
  dueAt: (task) => (task.runs === 0 ? task.due : undefined),
  run: (tx, task) => void tx.put(Tasks, { ...task, runs: task.runs + 1 }),
};

// The scheduler and the store take any record type (the catalogue casts the same way).
const KINDS = [kind as unknown as JobKind];
const COLLECTIONS = [Tasks] as never;

function setUp(jobsPerBatch: number) {
  const store = new Store(COLLECTIONS, memoryPersistence());
  const timers = new Timers();
  const scheduler = new Scheduler<SchedulerContext>(store, KINDS, timers, jobsPerBatch);
  const clock = createClock({ start: 0, frozen: true });
  scheduler.start({ clock, bus: new Bus() });
  const batches: Change[][] = [];
  store.onCommit((changes) => void batches.push([...changes]));
  return { store, scheduler, clock, batches, stop: () => scheduler.stop() };
}

t.test('the jobs of one instant run in batches of at most jobsPerBatch, each job once, the clock stored with each', async (t) => {
  const { store, scheduler, clock, batches, stop } = setUp(3);
  t.teardown(stop);
  store.transaction((tx) => {
    for (let i = 0; i < 10; i++) tx.put(Tasks, { id: `t${i}`, due: MeetAt, runs: 0 });
  });
  batches.length = 0;
  const saved: number[] = [];
  const report = await scheduler.advance(
    () => MeetAt + 1,
    () => saved.push(clock.now()),
  );
  t.equal(report.ran['task.run'], 10, 'all ten ran');
  t.same(
    [...store.all(Tasks)].map((task) => task.runs),
    Array(10).fill(1),
    'each once',
  );
  const work = batches.filter((changes) => changes.length > 0).map((changes) => changes.length);
  t.same(work.slice(0, 4), [3, 3, 3, 1], 'four batches at that instant: 3, 3, 3 and 1 jobs');
  t.same(saved.slice(0, 4), [MeetAt, MeetAt, MeetAt, MeetAt], 'each stores the clock at that instant');
});

t.test('a crash between two batches of one instant: the restart runs the rest, each job once', async (t) => {
  // A journal that dies (like a kill -9) when asked to append its third line.
  const journal: Change[][] = [];
  const persistence = (limit: number): Persistence => ({
    load: async (apply) => {
      for (const line of journal) apply(line);
    },
    append: (changes) => {
      if (journal.length >= limit) throw new Error('killed');
      journal.push([...changes]);
      return undefined;
    },
    close: async () => {},
  });
  const first = new Store(COLLECTIONS, persistence(2));
  await first.open();
  const dying = new Scheduler<SchedulerContext>(first, KINDS, new Timers(), 4);
  dying.start({ clock: createClock({ start: MeetAt, frozen: true }), bus: new Bus() });
  t.teardown(() => dying.stop());
  first.transaction((tx) => {
    for (let i = 0; i < 6; i++) tx.put(Tasks, { id: `t${i}`, due: MeetAt, runs: 0 });
  });
  await t.rejects(dying.runDue(MeetAt), /killed/, 'the second batch never reached the journal');

  const second = new Store(COLLECTIONS, persistence(Number.POSITIVE_INFINITY));
  await second.open();
  t.same(
    [...second.all(Tasks)].map((task) => task.runs),
    [1, 1, 1, 1, 0, 0],
    'the first batch is stored whole, the second not at all',
  );
  const again = new Scheduler<SchedulerContext>(second, KINDS, new Timers(), 4);
  again.rebuild();
  again.start({ clock: createClock({ start: MeetAt, frozen: true }), bus: new Bus() });
  t.teardown(() => again.stop());
  t.same((await again.runDue(MeetAt)).ran, { 'task.run': 2 }, 'the restart runs the two left');
  t.same(
    [...second.all(Tasks)].map((task) => task.runs),
    Array(6).fill(1),
    'each job once',
  );
});

t.test('records that reschedule themselves run once per period, in time order, across batches and instants', async (t) => {
  // Each run schedules the record's next one (as recurring billing does), so the entries a batch
  // takes off the heap are filled in again by the same batch's commits.
  interface Repeating {
    id: string;
    next: number;
    ran: number[];
  }
  const Repeatings = collection<Repeating>('repeating');
  const period = 1000;
  const repeating: JobKind<Repeating> = {
    kind: 'repeating.run',
    collection: Repeatings,
    dueAt: (record) => (record.ran.length < 5 ? record.next : undefined),
    run: (tx, record, at) =>
      void tx.put(Repeatings, { ...record, next: record.next + period * (1 + (Number(record.id.slice(1)) % 2)), ran: [...record.ran, at] }),
  };
  const store = new Store([Repeatings] as never, memoryPersistence());
  const scheduler = new Scheduler<SchedulerContext>(store, [repeating as unknown as JobKind], new Timers(), 3);
  const clock = createClock({ start: 0, frozen: true });
  scheduler.start({ clock, bus: new Bus() });
  t.teardown(() => scheduler.stop());
  store.transaction((tx) => {
    for (let i = 0; i < 8; i++) tx.put(Repeatings, { id: `r${i}`, next: MeetAt, ran: [] });
  });
  const report = await scheduler.advance(
    () => MeetAt + 20 * period,
    () => {},
  );
  const times = report.items.map((item) => item.at);
  t.equal(report.ran['repeating.run'], 40, 'five runs of each of eight records');
  for (const record of store.all(Repeatings)) {
    const step = period * (1 + (Number(record.id.slice(1)) % 2));
    t.same(
      record.ran,
      [0, 1, 2, 3, 4].map((k) => MeetAt + k * step),
      `${record.id} ran at each of its dates`,
    );
  }
  t.same(times, [...times].sort(), 'in time order');
});
