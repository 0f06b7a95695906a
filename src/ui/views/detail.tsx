import { Box } from 'ink';
import { attemptTone, cell, chaosTag, deliveryText, durationText, fitColumns, namespaceText, oneLine, outcome, timeText, type ColumnSpec } from '../format.js';
import type { EventRow } from '../state.js';
import { Line, type Span } from './line.js';

type Column = 'indent' | 'number' | 'time' | 'status' | 'duration' | 'response';

const TITLES: Record<Column, string> = { indent: '', number: '#', time: 'time', status: 'status', duration: 'duration', response: 'response' };

/**
 * The attempts table's columns for a terminal `width` wide: the number, the status and the
 * response always stay (the response takes the rest of the line, at least 20 columns); on a
 * narrow terminal the duration goes first, then the time.
 */
export function attemptColumns(width: number, days: boolean): { key: Column; width: number }[] {
  const specs: ColumnSpec<Column>[] = [
    { key: 'indent', width: 2 },
    { key: 'number', width: 4 },
    { key: 'time', width: days ? 17 : 10, drop: 2 },
    { key: 'status', width: 14 },
    { key: 'duration', width: 10, drop: 1 },
    // Room for the start of a body: on a narrow terminal, a time with its day goes first.
    { key: 'response', width: 20 },
  ];
  return fitColumns(width, specs);
}

/**
 * How the detail view shares its `height`: attempts get up to a third (the newest ones), the
 * payload the rest. `maxScroll` bounds the payload's scrolling.
 */
export function detailLayout(event: EventRow, height: number) {
  const payload = JSON.stringify(event.payload, null, 2).split('\n');
  // Five lines are titles: the event, its delivery, "Payload", "Attempts" and the column names.
  const attemptRows = Math.min(event.attempts.length, Math.max(3, Math.floor(height / 3)), Math.max(0, height - 6));
  const payloadRows = Math.max(1, height - 5 - attemptRows);
  return { payload, payloadRows, attemptRows, maxScroll: Math.max(0, payload.length - payloadRows) };
}

/** One event: its payload and every delivery attempt (status, response body, duration). */
export function EventDetail(props: { event: EventRow | undefined; scroll: number; height: number; width: number; days: boolean }) {
  const { event, height, width, days } = props;
  if (!event) return <Line width={width} spans={[{ text: 'This event is no longer kept (the list holds the latest ones). Esc goes back.', style: 'dim' }]} />;
  const delivery = deliveryText(event);
  const attempts = event.attempts;
  const { payload, payloadRows, attemptRows } = detailLayout(event, height);
  const shown = scrolled(payload, props.scroll, payloadRows);
  const firstShown = attempts.length - attemptRows;
  const columns = attemptColumns(width, days);
  return (
    <Box flexDirection="column">
      <Line
        width={width}
        spans={[
          { text: event.name, style: 'bold' },
          { text: ` ${event.source}/${event.mode}${event.namespace === undefined ? '' : ` ${namespaceText(event)}`} at ${timeText(event.at, days)} ` },
          { text: `id ${event.id}`, style: 'dim' },
        ]}
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
      <Line width={width} spans={[{ text: attempts.length === 0 ? '  none yet' : columns.map((c) => cell(TITLES[c.key], c.width)).join(''), style: 'dim' }]} />
      {attempts.slice(firstShown).map((a, i) => {
        const text: Record<Column, string> = {
          indent: '',
          number: String(firstShown + i + 1),
          time: timeText(a.at, days),
          status: outcome(a),
          duration: durationText(a),
          response: oneLine(`${chaosTag(a) ? `${chaosTag(a)} ` : ''}${a.response_body ?? a.error ?? ''}`, width),
        };
        const spans: Span[] = columns.map((c) => ({ text: cell(text[c.key], c.width), ...(c.key === 'status' ? { style: attemptTone(a) } : {}) }));
        // biome-ignore lint/suspicious/noArrayIndexKey: the attempt's number, which never changes: attempts are only appended.
        return <Line key={firstShown + i} width={width} spans={spans} />;
      })}
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
