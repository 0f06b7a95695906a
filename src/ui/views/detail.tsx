import { Box } from 'ink';
import { attemptTone, cell, clockTime, deliveryText, durationText, oneLine, outcome } from '../format.js';
import type { EventRow } from '../state.js';
import { Line } from './line.js';

/**
 * How the detail view shares its `height`: attempts get up to a third (the newest ones), the
 * payload the rest. `maxScroll` bounds the payload's scrolling.
 */
export function detailLayout(event: EventRow, height: number) {
  const payload = JSON.stringify(event.payload, null, 2).split('\n');
  const attemptRows = Math.min(event.attempts.length, Math.max(3, Math.floor(height / 3)));
  const payloadRows = Math.max(3, height - 3 - (attemptRows + 2));
  return { payload, payloadRows, attemptRows, maxScroll: Math.max(0, payload.length - payloadRows) };
}

/** One event: its payload and every delivery attempt (status, response body, duration). */
export function EventDetail(props: { event: EventRow | undefined; scroll: number; height: number; width: number }) {
  const { event, height, width } = props;
  if (!event) return <Line width={width} spans={[{ text: 'This event is no longer kept (the list holds the latest ones). Esc goes back.', style: 'dim' }]} />;
  const delivery = deliveryText(event);
  const attempts = event.attempts;
  const { payload, payloadRows, attemptRows } = detailLayout(event, height);
  const shown = scrolled(payload, props.scroll, payloadRows);
  const firstShown = attempts.length - attemptRows;
  const bodyWidth = Math.max(10, width - 2 - 4 - 10 - 14 - 10 - 1);
  return (
    <Box flexDirection="column">
      <Line
        width={width}
        spans={[{ text: event.name, style: 'bold' }, { text: ` ${event.source}/${event.mode} at ${clockTime(event.at)} ` }, { text: `id ${event.id}`, style: 'dim' }]}
      />
      <Line
        width={width}
        spans={[
          { text: 'delivery ' },
          { text: delivery.text, style: delivery.tone },
          { text: `  ${attempts.length} ${attempts.length === 1 ? 'attempt' : 'attempts'} kept`, style: 'dim' },
        ]}
      />
      <Line width={width} spans={[{ text: 'Payload', style: 'bold' }]} />
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a payload line is its place in the payload; lines may repeat.
        <Line key={i} width={width} spans={[{ text: `  ${line}` }]} />
      ))}
      <Line width={width} spans={[{ text: 'Attempts', style: 'bold' }]} />
      <Line
        width={width}
        spans={[{ text: attempts.length === 0 ? '  none yet' : `  ${cell('#', 4)}${cell('time', 10)}${cell('status', 14)}${cell('duration', 10)}response`, style: 'dim' }]}
      />
      {attempts.slice(firstShown).map((a, i) => (
        <Line
          // biome-ignore lint/suspicious/noArrayIndexKey: the attempt's number, which never changes: attempts are only appended.
          key={firstShown + i}
          width={width}
          spans={[
            { text: `  ${cell(String(firstShown + i + 1), 4)}${cell(clockTime(a.at), 10)}` },
            { text: cell(outcome(a), 14), style: attemptTone(a) },
            { text: `${cell(durationText(a), 10)}${oneLine(a.response_body ?? a.error, bodyWidth)}` },
          ]}
        />
      ))}
    </Box>
  );
}

/** The `rows` lines of `lines` from `scroll` on (clamped); a cut is marked in its first or last line. */
function scrolled(lines: string[], scroll: number, rows: number): string[] {
  if (lines.length <= rows) return lines;
  const from = Math.min(scroll, lines.length - rows);
  const shown = lines.slice(from, from + rows);
  if (from > 0) shown[0] = `… ${from + 1} lines above (PgUp)`;
  const below = lines.length - (from + rows);
  if (below > 0) shown[rows - 1] = `… ${below + 1} more lines (PgDn)`;
  return shown;
}
