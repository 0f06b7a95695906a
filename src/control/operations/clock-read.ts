import { clockView as clockViewSchema } from '../../schemas/control.js';
import { clockView } from '../clock.js';
import { operation } from '../operation.js';

/** `GET /_payemu/clock`: the virtual clock; the library's `clock.now()` is its `now`. */
export const clockRead = operation({
  method: 'GET',
  path: '/_payemu/clock',
  summary: 'Read the virtual clock',
  result: clockViewSchema,
  run: (app) => clockView(app),
  client: { name: 'clock' },
  library: { at: 'clock.now', result: (clock) => clock.now },
});
