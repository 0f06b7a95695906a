import chalk from 'chalk';
import { Transform } from 'ink';
import { clip, textWidth, type Tone } from '../format.js';

export type Style = Tone | 'bold' | 'accent' | 'error' | 'notice';

/** A run of text in one style. */
export interface Span {
  text: string;
  style?: Style;
}

// Ink's own chalk instance and level: the same colours as its <Text>, and none without a terminal.
const paint: Record<Style, (text: string) => string> = {
  ok: chalk.green,
  warn: chalk.yellow,
  bad: chalk.red,
  dim: chalk.dim,
  plain: (text) => text,
  bold: chalk.bold,
  accent: chalk.bold.cyan,
  error: chalk.red,
  notice: chalk.yellow,
};

/**
 * One line of changing text (a request, an event, the clock), `width` columns wide.
 *
 * Why not <Text>: Ink 6 keeps the size of every distinct string it ever measured, in module
 * caches that never evict (vadimdemedes/ink#986, bounded upstream later). A live request log shows
 * new strings all day, so memory would grow for as long as payemu runs. Here Ink measures only a placeholder of blanks as wide as the line (one cached entry per
 * width), and the Transform swaps the real text in when the frame is written, where Ink's caches
 * last one frame.
 */
export function Line(props: { spans: readonly Span[]; width: number; inverse?: boolean }) {
  const width = Math.max(1, props.width);
  let text = fitted(props.spans, width);
  if (props.inverse) text = chalk.inverse(text);
  return <Transform transform={() => text}>{' '.repeat(width)}</Transform>;
}

/**
 * The spans, painted, cut to `width` display columns (a cut ends in …) and padded to cover the
 * placeholder: never wider than the terminal, so nothing wraps into the next row.
 */
function fitted(spans: readonly Span[], width: number): string {
  let room = width;
  let out = '';
  for (const span of spans) {
    if (room <= 0) break;
    const text = clip(span.text, room);
    room -= textWidth(text);
    out += span.style ? paint[span.style](text) : text;
  }
  return out + ' '.repeat(Math.max(0, room));
}

/** A panel's title line: its name in bold, then a dim note (a count, what the keys do). */
export function Title(props: { title: string; note: string; width: number }) {
  return (
    <Line
      width={props.width}
      spans={[
        { text: `${props.title} `, style: 'bold' },
        { text: `(${props.note})`, style: 'dim' },
      ]}
    />
  );
}
