/**
 * How the list screen shares its `rows` between the events and the requests: by what each holds.
 * A pane that holds fewer lines than its share gives the rest to the other; when both hold more,
 * the events get 60 % (they are what the keys act on). So no pane shows a blank line while the
 * other hides rows; blank lines are left only when both show everything they hold.
 */
export function shareRows(rows: number, held: { events: number; requests: number }): { events: number; requests: number } {
  const share = Math.ceil(rows * 0.6);
  if (held.events <= share) return { events: held.events, requests: rows - held.events };
  if (held.requests <= rows - share) return { events: rows - held.requests, requests: held.requests };
  return { events: share, requests: rows - share };
}
