import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import t from 'tap';
import { inFlight } from './in-flight.js';

const response = (name: string) => Object.assign(new EventEmitter(), { name }) as unknown as ServerResponse & { name: string };
const names = (open: ReturnType<typeof inFlight>) => {
  const seen: string[] = [];
  open.forEach((res) => {
    seen.push((res as ServerResponse & { name: string }).name);
  });
  return seen.sort();
};

t.test('a response is open from add until its close, whichever closes first', async (t) => {
  const open = inFlight();
  const [a, b, c] = ['a', 'b', 'c'].map(response);
  for (const res of [a!, b!, c!]) open.add(res);
  t.same(names(open), ['a', 'b', 'c']);
  a!.emit('close');
  t.same(names(open), ['b', 'c'], 'the first one closed');
  c!.emit('close');
  t.same(names(open), ['b'], 'the last one closed');
  c!.emit('close');
  t.same(names(open), ['b'], 'a second close changes nothing');
  b!.emit('close');
  t.same(names(open), []);
});

t.test('over random opens and closes it holds exactly the open responses', async (t) => {
  let state = 7;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31; // replayable
  const open = inFlight();
  const model = new Map<string, ServerResponse>();
  let n = 0;
  for (let step = 0; step < 2_000; step++) {
    if (model.size === 0 || random() < 0.55) {
      const res = response(`r${n++}`);
      open.add(res);
      model.set((res as ServerResponse & { name: string }).name, res);
    } else {
      const keys = [...model.keys()];
      const name = keys[Math.floor(random() * keys.length)]!;
      model.get(name)!.emit('close');
      model.delete(name);
    }
    if (step % 50 === 0) t.same(names(open), [...model.keys()].sort(), `step ${step}`);
  }
  t.same(names(open), [...model.keys()].sort(), 'at the end');
});

t.test('forEach may close responses as it goes', async (t) => {
  const open = inFlight();
  for (const name of ['a', 'b', 'c']) open.add(response(name));
  const visited: string[] = [];
  open.forEach((res) => {
    visited.push((res as ServerResponse & { name: string }).name);
    res.emit('close');
  });
  t.same(visited.sort(), ['a', 'b', 'c'], 'each visited once');
  t.same(names(open), []);
});
