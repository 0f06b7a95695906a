import type { ServerResponse } from 'node:http';
import t from 'tap';
import { Timers } from '../clock/timers.js';
import { AnswerWrites, endAnswer } from './answer-writes.js';

/** A response that records what is written to it, in one log shared by all. */
function response(log: string[], name: string, fails = false) {
  return {
    end(body?: string) {
      if (fails) throw new Error('write after end');
      log.push(`${name}:${body ?? ''}`);
    },
    destroy() {
      log.push(`${name} destroyed`);
    },
  } as unknown as ServerResponse;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

t.test("a turn's answers are written together at its end, in the order they were sent", async (t) => {
  const log: string[] = [];
  const writes = new AnswerWrites(new Timers());
  const [a, b, c] = ['a', 'b', 'c'].map((name) => response(log, name));
  for (const res of [a!, b!, c!]) writes.attach(res);
  endAnswer(a!, '1');
  endAnswer(b!);
  endAnswer(c!, '3');
  t.same(log, [], 'nothing written while the turn runs');
  await nextTurn();
  t.same(log, ['a:1', 'b:', 'c:3']);
  endAnswer(a!, '4');
  await nextTurn();
  t.same(log, ['a:1', 'b:', 'c:3', 'a:4'], 'the next turn writes its own');
});

t.test('an answer that cannot be written is dropped with its connection; the others are written', async (t) => {
  const log: string[] = [];
  const writes = new AnswerWrites(new Timers());
  const responses = [response(log, 'a'), response(log, 'b', true), response(log, 'c')];
  for (const res of responses) {
    writes.attach(res);
    endAnswer(res, 'x');
  }
  await nextTurn();
  t.same(log, ['a:x', 'b destroyed', 'c:x']);
});

t.test('a response of no batching server is written at once', async (t) => {
  const log: string[] = [];
  endAnswer(response(log, 'a'), 'now');
  t.same(log, ['a:now']);
});

t.test('a stop does not cancel answers waiting for the end of the turn', async (t) => {
  const log: string[] = [];
  const timers = new Timers();
  const writes = new AnswerWrites(timers);
  const res = response(log, 'a');
  writes.attach(res);
  endAnswer(res, 'kept');
  timers.cancelAll();
  await nextTurn();
  t.same(log, ['a:kept']);
});
