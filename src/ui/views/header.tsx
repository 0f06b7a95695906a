import { Box } from 'ink';
import { cell, clockDateTime, clockOffset, clip, targetText, textWidth } from '../format.js';
import type { Target } from '../state.js';
import { Line } from './line.js';

export interface HeaderSource {
  slug: string;
  name: string;
  test_key: string;
  webhook_secret: string;
}

export interface ClockView {
  /** Virtual time, epoch ms. */
  now: number;
  /** Virtual minus real time, ms. */
  offsetMs: number;
  frozen: boolean;
}

/** The blank columns before each line's label. */
const INDENT = 2;

/**
 * Is it running, where, with which keys, where webhooks go and whether they are answered. Two
 * lines a Source, so that it fits a terminal beside an editor (about 100 columns). On a narrow
 * terminal the labels shorten (`key`, `secret`) before anything is cut, and a long webhook URL
 * is cut in the middle so that whether the endpoint answers stays in view.
 */
export function Header(props: { url: string; sources: readonly HeaderSource[]; targets: Record<string, Target>; clock: ClockView; width: number }) {
  const { clock, width } = props;
  // Columns line up across Sources, whatever the lengths of their slugs and keys; a very long
  // slug is cut rather than pushing the keys off the line.
  const slugWidth = Math.min(Math.max(6, ...props.sources.map((s) => textWidth(s.slug))) + 3, Math.max(9, Math.floor(width / 5)));
  const keyWidth = Math.max(0, ...props.sources.map((s) => textWidth(s.test_key))) + 2;
  const longest = Math.max(0, ...props.sources.map((s) => textWidth(s.webhook_secret)));
  const full = INDENT + slugWidth + 'test key '.length + keyWidth + 'webhook secret '.length + longest <= width;
  const labels = full ? { key: 'test key ', secret: 'webhook secret ' } : { key: 'key ', secret: 'secret ' };
  return (
    <Box flexDirection="column">
      <Line
        width={width}
        spans={[{ text: 'payemu', style: 'bold' }, { text: ' ' }, { text: '● running', style: 'ok' }, { text: ' on ' }, { text: props.url, style: 'accent' }]}
      />
      <Line
        width={width}
        spans={[
          { text: ' '.repeat(INDENT) },
          { text: cell('clock', slugWidth), style: 'bold' },
          { text: `${clockDateTime(clock.now)}  ` },
          { text: `${clockOffset(clock.offsetMs)}${clock.frozen ? ', frozen' : ''}`, style: 'dim' },
        ]}
      />
      {props.sources.map((source) => {
        const target = targetText(props.targets[source.slug]);
        const lead = `${' '.repeat(INDENT + slugWidth)}webhooks → `;
        // The URL gets what the answer leaves of the line.
        const state = target.url === undefined ? '' : `  ${target.state}`;
        const url = target.url === undefined ? target.text : clip(target.url, Math.max(12, width - textWidth(lead) - textWidth(state)));
        return (
          <Box key={source.slug} flexDirection="column">
            <Line
              width={width}
              spans={[
                { text: ' '.repeat(INDENT) },
                { text: cell(source.slug, slugWidth), style: 'bold' },
                { text: `${labels.key}${source.test_key.padEnd(keyWidth)}${labels.secret}${source.webhook_secret}` },
              ]}
            />
            <Line width={width} spans={[{ text: lead }, { text: `${url}${state}`, style: target.tone }]} />
          </Box>
        );
      })}
    </Box>
  );
}
