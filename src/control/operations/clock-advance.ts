import { formatTimestamp } from '../../clock/format.js';
import type { RunReport } from '../../clock/scheduler.js';
import { advanceReport } from '../../schemas/control.js';
import { advanceBody, advanceClock, clockView, targetOf } from '../clock.js';
import { type Input, operation } from '../operation.js';

/** Either a duration (`"30d"`, `"12h"`, or seconds) or a timestamp to move to. */
export type AdvanceBy = { by: string | number; to?: never } | { to: string; by?: never };

/** `POST /_payemu/clock/advance {"by": "30d"}` (or `"to"`): moves the clock, running the work that falls due. */
export const clockAdvance = operation({
  method: 'POST',
  path: '/_payemu/clock/advance',
  summary: 'Advance the virtual clock, running the work that falls due',
  body: advanceBody,
  result: advanceReport,
  errors: [422],
  run: async (app, _scope, { body }: Input<{ by?: string | number; to?: string }>, { now, save }) => {
    const target = targetOf(body, now);
    // With an Idempotency-Key, the answer is saved in the advance's last transaction, with
    // the clock at the target: a crash after it cannot let a retry advance again.
    const answer = (report: RunReport & { now: number }) => ({ ...clockView(app), now: formatTimestamp(report.now), ran: report.ran, items: report.items });
    return answer(await advanceClock(app, target, save && ((tx, report) => save(tx, answer(report)))));
  },
  client: { name: 'advanceClock', args: (by: AdvanceBy) => ({ body: by }) },
  library: {
    at: 'clock.advance',
    args: (by: string | number) => ({ input: { body: { by } } }),
    result: ({ now, ran }) => ({ now, ran }),
    error: (error, by: string | number) => {
      throw new RangeError(`clock.advance(${JSON.stringify(by)}): ${error.message}`);
    },
  },
});
