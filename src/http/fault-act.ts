import type http from 'node:http';
import { type Reply, send } from './envelope.js';
import { HttpError } from './errors.js';
import { type FaultRecord, faultReply } from './faults.js';
import type { RouteApp } from './http-app.js';
import { noteOf } from './request-note.js';

// How a fault set through /_payemu/faults acts on a request the server matched to it.

/**
 * A fault acts: it waits its latency (real time), then answers its status without running the
 * request, or closes the connection unanswered, or (`apply`) runs the request for real and
 * replaces only its answer. A fault with neither status nor drop delays the real answer.
 * A client that gives up during the wait changes none of that (the request runs when the fault
 * says, as a slow provider's would), but its answer goes nowhere: none is written, and the
 * journal records the request as closed unanswered.
 */
export async function actOnFault(
  app: RouteApp,
  fault: FaultRecord,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  sent: Promise<unknown>,
  answer: () => Promise<Reply>,
  report: (error: unknown) => void,
): Promise<void> {
  noteOf(req).fault = fault.id;
  if (fault.latency_ms > 0) await app.timers.track(wait(app, fault.latency_ms));
  if (fault.status === null && !fault.drop) {
    let reply: Reply;
    try {
      reply = await answer();
    } catch (error) {
      if (!res.destroyed) throw error;
      if (!(error instanceof HttpError)) report(error);
      return;
    }
    return sendUnlessGone(res, reply);
  }
  if (fault.apply) {
    // The work is done (stored, webhooks sent, the Idempotency-Key's result saved); its answer is lost.
    try {
      noteOf(req).carried = (await answer()).status;
    } catch (error) {
      if (error instanceof HttpError) noteOf(req).carried = error.status;
      else report(error);
    }
  }
  // The journal keeps what was sent, though nothing ran.
  await sent.catch(() => undefined);
  if (fault.drop) return void req.socket.destroy();
  sendUnlessGone(res, faultReply(fault));
}

/** `send`, unless the client closed the connection (its answer would be counted as sent: `headersSent`). */
function sendUnlessGone(res: http.ServerResponse, reply: Reply): void {
  if (!res.destroyed) send(res, reply);
}

/** Resolves after `ms` real milliseconds, or at once when payemu stops. */
function wait(app: RouteApp, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      timer.cancel();
      resolve();
    };
    const timer = app.timers.after(ms, () => {
      app.shutdown.removeEventListener('abort', stop);
      resolve();
    });
    app.shutdown.addEventListener('abort', stop, { once: true });
  });
}
