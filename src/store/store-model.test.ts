import t from 'tap';
import { Store } from './store.js';
import { filePersistence } from './file-persistence.js';
import { COLLECTIONS, Others, random, Things, type Thing } from './store.test-support.js';

/**
 * The store against a model (a plain map of records), over random histories: puts, partial
 * rewrites, deletes, reads, index look-ups, clears and clean restarts. A restart leaves the snapshot's
 * records unparsed, and reads, writes and index builds then meet them in every order: whatever
 * the order, what a reader sees is what the model holds. So do the due times of a watch (kept
 * beside the snapshot, as the scheduler's are).
 */

/** A watch's due times, as the scheduler's: some things have none, and some run later than due. */
const dueTimes = (r: Thing): [number, number] | undefined => (r.n % 3 === 0 ? undefined : [r.n, r.n + (r.tags?.length ?? 0)]);

const COLORS = ['red', 'blue', 'green'];
const TAGS = ['a', 'b', 'c', 'd'];

const sortedIds = (records: Iterable<{ id: string }>) => inOrder(records).sort();
const inOrder = (records: Iterable<{ id: string }>) => [...records].map((r) => r.id);

/**
 * The things with an odd `n` held as they were written (Store.holdWhen): reads, rewrites,
 * deletes, index look-ups, restarts and snapshots meet records kept as their journal bytes, with
 * their keys in two indexes (one of lists), and what a reader sees is still the model.
 */
for (const held of [false, true])
  for (let seed = 1; seed <= (held ? 8 : 12); seed++) {
    t.test(`seed ${seed}${held ? ', odd things held as written' : ''}: what the store answers is what the model holds`, async (t) => {
      const dir = t.testdir();
      const rng = random(seed);
      const model = new Map<string, Thing>();
      const open = async () => {
        // A snapshot at half the clean stops: the next start meets unparsed records, and journal
        // lines laid over them (a record rewritten in part is journaled as what changed).
        const store = new Store(COLLECTIONS, filePersistence(dir, { snapshotAtCloseBytes: rng.below(2) === 0 ? 1 : 1e9 }));
        store.watch(Things, 'due', (r) => dueTimes(r) !== undefined, { of: dueTimes, source: 'model' });
        if (held) store.holdWhen(Things, (r) => r.n % 2 === 1);
        await store.open();
        return store;
      };
      let store = await open();
      t.teardown(() => store.close());
      const thing = (id: string): Thing => {
        const tags = TAGS.filter(() => rng.below(3) === 0);
        return { id, color: rng.pick(COLORS), n: rng.below(1000), ...(tags.length > 0 ? { tags } : {}) };
      };
      const check = (what: string) => {
        const color = rng.pick(COLORS);
        const tag = rng.pick(TAGS);
        const want = (test: (r: Thing) => boolean) => sortedIds([...model.values()].filter(test));
        // In the model's order, a map's: a record written again keeps its place, and one deleted
        // and written again (in one transaction too) goes last. (An index lists its ids in the
        // order they took its key.)
        t.same(inOrder(store.all(Things)), inOrder(model.values()), `${what}: every record, in order`);
        t.same(
          sortedIds(store.find(Things, 'byColor', color)),
          want((r) => r.color === color),
          `${what}: byColor ${color}`,
        );
        t.same(
          sortedIds(store.find(Things, 'byTag', tag)),
          want((r) => r.tags?.includes(tag) === true),
          `${what}: byTag ${tag}`,
        );
        t.equal(store.countIndex(Things, 'byColor', color), want((r) => r.color === color).length);
      };
      const checkDue = (what: string) => {
        const want = [...model.values()].flatMap((r) => {
          const times = dueTimes(r);
          return times ? [[r.id, ...times]] : [];
        });
        const found: [string, number, number][] = [];
        store.due(Things, 'due', (id, due, at) => found.push([id, due, at]));
        t.same(found, want, `${what}: due times, in insertion order`);
      };
      // How many writes (deletes apart) met a record still held: the paths the held runs are for.
      const met = { written: 0, deleted: 0 };
      for (let step = 0; step < 400; step++) {
        // Held runs: fewer ids and fewer reads of them all, so that writes and deletes meet held records.
        const id = `t${rng.below(held ? 20 : 60)}`;
        let op = rng.below(23);
        if (held && op >= 11 && op < 17 && rng.below(4) > 0) op = rng.below(11);
        if (store.isHeld(Things, id) && (op < 11 || op >= 17) && op !== 18) met[op >= 8 && op < 11 ? 'deleted' : 'written']++;
        if (op < 8) {
          const record = thing(id);
          store.transaction((tx) => tx.put(Things, record));
          model.set(id, record);
        } else if (op < 11) {
          store.transaction((tx) => tx.delete(Things, id));
          model.delete(id);
        } else if (op < 14) {
          t.same(store.get(Things, id), model.get(id), `get ${id}`);
        } else if (op < 17) {
          check(`step ${step}`);
        } else if (op === 17) {
          // A transaction that reads through its own writes, then a look-up in it.
          const record = thing(id);
          store.transaction((tx) => {
            tx.put(Things, record);
            t.ok(sortedIds(tx.find(Things, 'byColor', record.color)).includes(id), 'a transaction sees its own write in the index');
          });
          model.set(id, record);
        } else if (op === 18) {
          if (rng.below(4) === 0) {
            store.clear((record, collection) => collection === 'things' && (record as Thing).color === 'green');
            for (const [key, record] of model) if (record.color === 'green') model.delete(key);
          }
        } else if (op === 22) {
          // Deleted and written again in one transaction (an import of everything does it to
          // every record it keeps), with another write between at times.
          const record = thing(id);
          const other = thing(`t${rng.below(60)}`);
          const between = other.id !== id && rng.below(2) === 0;
          store.transaction((tx) => {
            tx.delete(Things, id);
            if (between) tx.put(Things, other);
            tx.put(Things, record);
          });
          model.delete(id);
          if (between) model.set(other.id, other);
          model.set(id, record);
        } else if (op >= 20) {
          // A record rewritten in part: one field changed, or its tags dropped.
          const before = model.get(id);
          if (before) {
            const { tags: _dropped, ...untagged } = before;
            const record = op === 20 ? { ...before, n: rng.below(1000) } : untagged;
            store.transaction((tx) => tx.put(Things, record));
            model.set(id, record);
          }
        } else {
          await store.close();
          store = await open();
          // As the scheduler does at start, at times before anything else reads the store.
          if (rng.below(2) === 0) checkDue(`step ${step}, restarted`);
        }
      }
      if (held) {
        t.ok(met.written > 0, `a held record was written over (${met.written} times)`);
        t.ok(met.deleted > 0, `a held record was deleted (${met.deleted} times)`);
      }
      check('at the end');
      checkDue('at the end');
      t.same(inOrder(store.all(Things)), [...model.keys()]);
      t.same(store.count(Others), 0);
    });
  }
