// What a trigger step's `created` id names, for people (`payment 3`, `session cs_...`): the
// trigger's answer gives the id alone, and a bare `3` says nothing.

/** The kinds of record whose ids say what they are. */
const ID_PREFIXES: readonly [prefix: string, kind: string][] = [
  ['cs_', 'session'],
  ['inv_', 'invoice'],
  ['re_', 'refund'],
  ['pm_', 'payment method'],
  ['ch_', 'charge'],
  ['pay_', 'payment'],
  ['rp_', 'recurring payment'],
];

/**
 * What a step's `created` id names: a payment's id is a number; most other ids say their kind in
 * their prefix; a reference a fixture chose (`--set reference=...`) is known by the path.
 */
export function createdKind(created: string, path: string): string {
  if (/^\d+$/.test(created)) return 'payment';
  const prefixed = ID_PREFIXES.find(([prefix]) => created.startsWith(prefix));
  if (prefixed) return prefixed[1];
  if (path.startsWith('/v1/recurring-payments')) return 'recurring payment';
  if (path.startsWith('/v1/payments')) return 'payment';
  return 'id';
}
