import type { Scope } from '../../http/auth.js';
import { Conflict, Gone, NotFound, Unprocessable } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { Transaction } from '../../store/store.js';
import { presentCard } from '../common/test-cards.js';
import { PaymentMethods, type PaymentMethodRecord } from '../payment-methods/records.js';
import { Recurring, type RecurringRecord } from '../recurring/records.js';
import { getRecurring, replaceCard } from '../recurring/service.js';
import { SESSION_LIFETIME_MS } from '../sessions/records.js';
import { MethodSessions, methodSessionStatus, type MethodSessionRecord } from './records.js';

/** Refused (422) for cancelled and completed schedules; nothing is charged. */
export function createMethodSession(
  tx: Transaction,
  scope: Scope,
  reference: string,
  body: { success_url?: string; cancel_url?: string },
  now: number,
): MethodSessionRecord {
  const schedule = getRecurring(tx, scope, reference);
  if (schedule.status === 'cancelled' || schedule.status === 'completed') {
    throw new Unprocessable(`The recurring payment "${reference}" is ${schedule.status}: its payment method cannot be updated.`);
  }
  return tx.put(MethodSessions, {
    id: newId('cs_'),
    source: schedule.source,
    mode: schedule.mode,
    recurring_id: schedule.id,
    recurring_reference: schedule.reference,
    ...(body.success_url !== undefined ? { success_url: body.success_url } : {}),
    ...(body.cancel_url !== undefined ? { cancel_url: body.cancel_url } : {}),
    status: 'open',
    created_at: now,
    expires_at: now + SESSION_LIFETIME_MS,
  });
}

export function getMethodSession(reader: Pick<Transaction, 'get'>, scope: Scope | undefined, id: string): MethodSessionRecord | undefined {
  const session = reader.get(MethodSessions, id);
  if (!session || (scope && (session.source !== scope.source.slug || session.mode !== scope.mode))) return undefined;
  return session;
}

export type MethodAttemptResult =
  | { ok: true; session: MethodSessionRecord; method: PaymentMethodRecord; schedule: RecurringRecord }
  | { ok: false; session: MethodSessionRecord; code: string; message: string };

/**
 * The customer presents a new card (hosted page or control plane). The card is verified
 * (4000 0027 6000 3184 asks for 3-D Secure) and saved; nothing is charged. A card that is
 * declined leaves everything as it was and the session open for another try.
 */
export function attemptMethodUpdate(tx: Transaction, id: string, attempt: { cardNumber: string; threeDs?: 'pass' | 'fail' }, now: number): MethodAttemptResult {
  const session = tx.get(MethodSessions, id);
  if (!session) throw new NotFound(`No session with id "${id}".`);
  const status = methodSessionStatus(session, now);
  if (status === 'expired') throw new Gone(`The session "${id}" has expired.`);
  if (status === 'complete') throw new Conflict(`The session "${id}" is already complete.`);
  const schedule = tx.get(Recurring, session.recurring_id);
  if (!schedule) throw new NotFound(`The recurring payment of session "${id}" no longer exists.`);

  const outcome = presentCard(attempt.cardNumber, session.mode, attempt.threeDs);
  if (outcome.outcome === 'decline') return { ok: false, session, code: outcome.code, message: outcome.message };

  const method = tx.put(PaymentMethods, {
    id: newId('pm_'),
    source: session.source,
    mode: session.mode,
    card_brand: outcome.brand,
    card_last: outcome.last4,
    decline_off_session: outcome.declineOffSession,
    ...(schedule.customer_email !== undefined ? { customer_email: schedule.customer_email } : {}),
    created_at: now,
  });
  const updated = replaceCard(tx, schedule, method, now);
  const completed = tx.put(MethodSessions, { ...session, status: 'complete' });
  return { ok: true, session: completed, method, schedule: updated };
}

/** Where the customer returns to: `?payment_method=updated` or `?payment_method=failed` appended. */
export function returnUrl(url: string, outcome: 'updated' | 'failed'): string {
  return `${url}${url.includes('?') ? '&' : '?'}payment_method=${outcome}`;
}
