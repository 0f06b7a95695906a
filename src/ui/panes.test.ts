import t from 'tap';
import { shareRows } from './panes.js';

// The list screen's lines go to the events and the requests by what each holds.

t.test('a pane with little content gives its rows to the other; both full: 60 % to the events', async (t) => {
  t.same(shareRows(24, { events: 4, requests: 12 }), { events: 4, requests: 20 }, 'few events: the requests take the rest');
  t.same(shareRows(24, { events: 40, requests: 3 }), { events: 21, requests: 3 }, 'few requests: the events take the rest');
  t.same(shareRows(24, { events: 40, requests: 40 }), { events: 15, requests: 9 }, 'both full: 60 / 40');
  t.same(shareRows(24, { events: 0, requests: 0 }), { events: 0, requests: 24 }, 'nothing yet');
  t.same(shareRows(8, { events: 5, requests: 3 }), { events: 5, requests: 3 }, 'exactly enough');
  for (const [events, requests] of [
    [0, 50],
    [3, 50],
    [50, 0],
    [50, 2],
    [9, 9],
    [200, 100],
  ] as const) {
    const rows = shareRows(14, { events, requests });
    t.equal(rows.events + rows.requests, 14, `${events}/${requests}: every line given`);
    const blank = Math.max(0, rows.events - events) + Math.max(0, rows.requests - requests);
    const hidden = Math.max(0, events - rows.events) + Math.max(0, requests - rows.requests);
    t.ok(blank === 0 || hidden === 0, `${events}/${requests}: no blank line while rows are hidden`);
  }
});
