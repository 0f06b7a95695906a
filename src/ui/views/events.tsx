import { Box } from 'ink';
import { amountText, cell, clockTime, deliveryText } from '../format.js';
import type { EventRow } from '../state.js';
import { Line } from './line.js';

/** Column widths for a terminal `width` wide; the reference takes what is left. */
function columns(width: number) {
  // Wide enough for every event name when the terminal allows; most are under 25 characters.
  const event = width >= 120 ? 33 : 25;
  const fixed = { mark: 2, time: 9, event, source: 12, amount: 13, delivery: 24 };
  const used = Object.values(fixed).reduce((a, b) => a + b, 0);
  return { ...fixed, reference: Math.max(8, width - used - 1) };
}

/** The live list of events, newest first; the selected one is highlighted and kept in view. */
export function EventList(props: { events: readonly EventRow[]; seen: number; selected: string | null; height: number; width: number }) {
  const { events, height, width } = props;
  const col = columns(width);
  const index = events.findIndex((e) => e.id === props.selected);
  const start = index < height ? 0 : index - height + 1;
  const visible = events.slice(start, start + height);
  const kept = props.seen > events.length ? `, latest ${events.length} of ${props.seen}` : '';
  return (
    <Box flexDirection="column">
      <Line width={width} spans={[{ text: 'Events ', style: 'bold' }, { text: `(${events.length === 0 ? 'none yet: trigger one with t' : `${events.length}${kept}`})`, style: 'dim' }]} />
      <Line
        width={width}
        spans={[{ text: `${cell('', col.mark)}${cell('time', col.time)}${cell('event', col.event)}${cell('source', col.source)}${cell('reference', col.reference)}${cell('amount', col.amount)}delivery`, style: 'dim' }]}
      />
      {visible.map((row) => {
        const selected = row.id === props.selected;
        const delivery = deliveryText(row);
        const text =
          cell(selected ? '›' : '', col.mark) +
          cell(clockTime(row.at), col.time) +
          cell(row.name, col.event) +
          cell(`${row.source}/${row.mode}`, col.source) +
          cell(row.reference ?? '', col.reference) +
          cell(amountText(row), col.amount);
        return <Line key={row.id} width={width} inverse={selected} spans={[{ text }, { text: delivery.text, style: delivery.tone }]} />;
      })}
    </Box>
  );
}
