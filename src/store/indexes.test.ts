import t from 'tap';
import { collection, type IndexKey } from './collection.js';
import { Indexes } from './indexes.js';
import { random } from './store.test-support.js';

/**
 * The indexes against the plain implementation they replace (a `Set` of ids per key, in the
 * order ids joined it), over random histories of one collection: puts, rewrites, deletes and
 * emptyings, with the index built at a random moment from the records as they then stand. Most
 * records share one key, so the key every record holds (kept as the collection's own ids) is
 * entered, left and entered again. Every key is compared after every step: same ids, same order.
 */

interface Rec {
  id: string;
  scope?: IndexKey;
}

class SetIndex {
  readonly map = new Map<string, Set<string>>();
  update(previous: Rec | undefined, next: Rec | undefined): void {
    const before = keys(previous?.scope);
    const after = keys(next?.scope);
    const id = (next ?? previous)!.id;
    for (const key of before) if (!after.includes(key)) this.map.get(key)?.delete(id);
    for (const key of after) {
      if (before.includes(key)) continue;
      let set = this.map.get(key);
      if (!set) this.map.set(key, (set = new Set()));
      set.add(id);
    }
  }
  ids(key: string): string[] {
    return [...(this.map.get(key) ?? [])];
  }
}

const keys = (key: IndexKey): readonly string[] => (key === undefined ? [] : typeof key === 'string' ? [key] : key);

const Recs = collection<Rec>('recs', { scope: (r) => r.scope });
const KEYS = ['main', 'main', 'main', 'main', 'main', 'main', 'other'];

for (let seed = 1; seed <= 40; seed++) {
  t.test(`seed ${seed}: the same ids in the same order as a Set per key`, async (t) => {
    const rng = random(seed);
    const records = new Map<string, Rec>();
    let built: { mine: Indexes<Rec>; plain: SetIndex } | undefined;
    const buildAt = 20 + rng.below(80);
    const keyOf = (): IndexKey => {
      const roll = rng.below(20);
      if (roll === 0) return undefined;
      if (roll === 1) return ['main', 'x'];
      if (roll === 2) return ['x'];
      return KEYS[rng.below(KEYS.length)];
    };
    const apply = (previous: Rec | undefined, next: Rec | undefined) => {
      built?.mine.update(previous, next);
      built?.plain.update(previous, next);
    };
    let mismatches = 0;
    for (let step = 0; step < 300; step++) {
      if (step === buildAt) {
        const mine = new Indexes(Recs, records);
        mine.build(records, (record) => record);
        const plain = new SetIndex();
        for (const record of records.values()) plain.update(undefined, record);
        built = { mine, plain };
      }
      const id = `r${rng.below(25)}`;
      const op = rng.below(10);
      const previous = records.get(id);
      if (op < 6) {
        // Mostly the same key again: a rewrite that keeps it.
        const next: Rec = { id, scope: previous && rng.below(2) === 0 ? previous.scope : keyOf() };
        records.set(id, next);
        apply(previous, next);
      } else if (op < 9) {
        if (previous) {
          records.delete(id);
          apply(previous, undefined);
        }
      } else if (rng.below(10) === 0) {
        for (const [key, record] of [...records]) {
          records.delete(key);
          apply(record, undefined);
        }
      }
      if (!built) continue;
      for (const key of ['main', 'other', 'x', 'none']) {
        const want = built.plain.ids(key);
        const ids = built.mine.ids('scope', key);
        const iterated: string[] = [];
        built.mine.each('scope', key, (id) => iterated.push(id) > 0);
        const count = built.mine.count('scope', key);
        if (JSON.stringify(ids) !== JSON.stringify(want) || JSON.stringify(iterated) !== JSON.stringify(want) || count !== want.length) {
          mismatches++;
          t.same({ ids, iterated, count }, { ids: want, iterated: want, count: want.length }, `step ${step}, key ${key}`);
        }
      }
    }
    t.equal(mismatches, 0, 'no step differed');
  });
}

t.test('a collection whose records all share a key keeps no Set for it, and reads its own ids', async (t) => {
  const records = new Map<string, Rec>();
  const indexes = new Indexes(Recs, records);
  indexes.build(records, (record) => record);
  for (let i = 0; i < 5; i++) {
    const record = { id: `r${i}`, scope: 'main' };
    records.set(record.id, record);
    indexes.update(undefined, record);
  }
  /** The ids `each` visits under `key` when its visitor refuses to go on after `last`. */
  const upTo = (key: string, last: string): string[] => {
    const seen: string[] = [];
    indexes.each('scope', key, (id) => {
      seen.push(id);
      return id !== last;
    });
    return seen;
  };
  t.same(indexes.ids('scope', 'main'), ['r0', 'r1', 'r2', 'r3', 'r4']);
  t.equal(indexes.count('scope', 'main'), 5);
  t.same(upTo('main', 'r2'), ['r0', 'r1', 'r2'], 'each stops where its visitor says, under the key every record holds');
  const live = { id: 'r5', scope: 'other' };
  records.set(live.id, live);
  indexes.update(undefined, live);
  t.same(indexes.ids('scope', 'main'), ['r0', 'r1', 'r2', 'r3', 'r4'], 'a record of another key: the others stay, in order');
  t.same(indexes.ids('scope', 'other'), ['r5']);
  t.same(upTo('main', 'r1'), ['r0', 'r1'], 'and under a Set of ids');
  t.same(upTo('other', 'none'), ['r5'], 'a single id');
  t.same(upTo('none', 'none'), [], 'no id');
  t.throws(() => indexes.ids('nope', 'main'), /no index nope/);
});
