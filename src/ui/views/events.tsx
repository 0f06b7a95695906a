import { Box } from 'ink';
import { amountText, cell, deliveryText, fitColumns, namespaceText, namespaceWidth, textWidth, timeText, type ColumnSpec } from '../format.js';
import type { EventRow } from '../state.js';
import { Line, type Span, Title } from './line.js';

type Column = 'mark' | 'time' | 'event' | 'namespace' | 'source' | 'reference' | 'amount' | 'delivery';

const TITLES: Record<Column, string> = {
  mark: '',
  time: 'time',
  event: 'event',
  namespace: 'ns',
  source: 'source',
  reference: 'reference',
  amount: 'amount',
  delivery: 'delivery',
};

/**
 * The columns that fit a terminal `width` wide, with their widths. The event's name and its
 * delivery state always stay; on a narrower terminal the source goes first (most setups have
 * one, and the detail view shows it), then the time (rows are newest first; the detail has it),
 * then the amount, then the reference. The reference takes what a wide terminal has to spare.
 * Once a named namespace's row was seen (`namespaced`), a namespace column (`~w3`; blank for the
 * default) follows the event's name: it goes after the time, before the amount.
 */
export function eventColumns(width: number, rows: readonly EventRow[], days: boolean, namespaced = false): { key: Column; width: number }[] {
  // Wide enough for every event name when the terminal allows; all but one are under 20 characters.
  const event = width >= 120 ? 33 : width >= 100 ? 25 : 21;
  // The source, the amount and the delivery state are as wide as the widest in view (and two
  // blanks), within bounds: a 12-digit amount is never cut, and short ones leave room for more.
  const widest = (texts: string[], min: number, max: number) => Math.min(max, Math.max(min, ...texts.map((text) => textWidth(text) + 2)));
  const source = widest(
    rows.map((r) => `${r.source}/${r.mode}`),
    11,
    width >= 120 ? 26 : 12,
  );
  const amount = widest(rows.map(amountText), 11, 24);
  const delivery = widest(
    rows.map((r) => deliveryText(r).text),
    15,
    26,
  );
  const specs: ColumnSpec<Column>[] = [
    { key: 'mark', width: 2 },
    // `10:00:00`, or `Dec 28 10:00:00` once times show their day.
    { key: 'time', width: days ? 17 : 10, drop: 2 },
    { key: 'event', width: event },
    ...(namespaced ? [{ key: 'namespace' as const, width: namespaceWidth(rows, width), drop: 2.5 }] : []),
    { key: 'source', width: source, drop: 1 },
    { key: 'reference', width: 14, min: 12, max: 40, flex: true, drop: 4 },
    { key: 'amount', width: amount, drop: 3 },
    { key: 'delivery', width: delivery },
  ];
  return fitColumns(width, specs);
}

/** The live list of events, newest first; the selected one is highlighted and kept in view. */
export function EventList(props: {
  events: readonly EventRow[];
  seen: number;
  selected: string | null;
  height: number;
  width: number;
  days: boolean;
  namespaced?: boolean;
}) {
  const { events, height, width } = props;
  const index = events.findIndex((e) => e.id === props.selected);
  const start = index < height ? 0 : index - height + 1;
  const visible = events.slice(start, start + height);
  const columns = eventColumns(width, visible, props.days, props.namespaced);
  const kept = props.seen > events.length ? `, latest ${events.length} of ${props.seen}` : '';
  return (
    <Box flexDirection="column">
      <Title width={width} title="Events" note={events.length === 0 ? 'none yet: trigger one with t' : `${events.length}${kept}`} />
      <Line width={width} spans={[{ text: columns.map((c) => cell(TITLES[c.key], c.width)).join(''), style: 'dim' }]} />
      {visible.map((row) => {
        const selected = row.id === props.selected;
        const delivery = deliveryText(row);
        const text: Record<Column, string> = {
          mark: selected ? '›' : '',
          time: timeText(row.at, props.days),
          event: row.name,
          namespace: namespaceText(row),
          source: `${row.source}/${row.mode}`,
          reference: row.reference ?? '',
          amount: amountText(row),
          delivery: delivery.text,
        };
        const spans: Span[] = columns.map((c) => ({ text: cell(text[c.key], c.width), ...(c.key === 'delivery' ? { style: delivery.tone } : {}) }));
        return <Line key={row.id} width={width} inverse={selected} spans={spans} />;
      })}
    </Box>
  );
}
