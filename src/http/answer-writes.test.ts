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

function server() {
  const log: string[] = [];
  const timers = new Timers();
  const writes = new AnswerWrites(timers);
  const res = (name: string, fails = false) => {
    const r = response(log, name, fails);
    writes.attach(r);
    return r;
  };
  return { log, timers, res };
}

t.test('a lone answer is written at once', async (t) => {
  const { log, res } = server();
  endAnswer(res('a'), '1');
  t.same(log, ['a:1']);
  await nextTurn();
  endAnswer(res('b'), '2');
  t.same(log, ['a:1', 'b:2'], 'and the next lone one too');
});

t.test("under load a turn's answers are written together at its end, in the order they were sent", async (t) => {
  const { log, res } = server();
  endAnswer(res('a'), '1');
  endAnswer(res('b'));
  endAnswer(res('c'), '3');
  t.same(log, ['a:1'], 'the first goes at once; the ones after it wait');
  await nextTurn();
  t.same(log, ['a:1', 'b:', 'c:3']);
  endAnswer(res('d'), '4');
  endAnswer(res('e'), '5');
  t.same(log, ['a:1', 'b:', 'c:3'], 'after a busy turn even the first answer waits');
  await nextTurn();
  t.same(log, ['a:1', 'b:', 'c:3', 'd:4', 'e:5']);
  endAnswer(res('f'), '6');
  await nextTurn();
  t.same(log.at(-1), 'f:6');
  endAnswer(res('g'), '7');
  t.same(log.at(-1), 'g:7', 'after a quiet turn, at once again');
});

t.test('an answer that cannot be written is dropped with its connection; the others are written', async (t) => {
  const { log, res } = server();
  endAnswer(res('a'), 'x');
  endAnswer(res('b', true), 'x');
  endAnswer(res('c'), 'x');
  await nextTurn();
  t.same(log, ['a:x', 'b destroyed', 'c:x']);
});

t.test('a response of no batching server is written at once', async (t) => {
  const log: string[] = [];
  endAnswer(response(log, 'a'), 'now');
  t.same(log, ['a:now']);
});

t.test('a stop does not cancel answers waiting for the end of the turn', async (t) => {
  const { log, timers, res } = server();
  endAnswer(res('a'), '1');
  endAnswer(res('b'), 'kept');
  timers.cancelAll();
  t.ok(timers.quiet(), 'nor does idle() wait for them');
  await nextTurn();
  t.same(log, ['a:1', 'b:kept']);
});
