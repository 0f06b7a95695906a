import { Box, Text } from 'ink';
import { clockDateTime, clockOffset, targetText } from '../format.js';
import type { Target } from '../state.js';
import { Line } from './line.js';
import { toneProps } from './tone.js';

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

/**
 * Is it running, where, with which keys, where webhooks go and whether they are answered. Two
 * lines a Source, so that it fits a terminal beside an editor (about 100 columns).
 */
export function Header(props: { url: string; sources: readonly HeaderSource[]; targets: Record<string, Target>; clock: ClockView; width: number }) {
  const { clock } = props;
  // Columns line up across Sources, whatever the lengths of their slugs and keys.
  const slugWidth = Math.max(6, ...props.sources.map((s) => s.slug.length)) + 3;
  const keyWidth = Math.max(...props.sources.map((s) => s.test_key.length)) + 2;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>payemu</Text> <Text color="green">● running</Text> on <Text bold color="cyan">{props.url}</Text>
      </Text>
      {/* A new string every second: a Line, not a Text (see line.tsx). */}
      <Line
        width={props.width}
        spans={[
          { text: '  ' },
          { text: 'clock'.padEnd(slugWidth), style: 'bold' },
          { text: `${clockDateTime(clock.now)}  ` },
          { text: `${clockOffset(clock.offsetMs)}${clock.frozen ? ', frozen' : ''}`, style: 'dim' },
        ]}
      />
      {props.sources.map((source) => {
        const target = targetText(props.targets[source.slug]);
        return (
          <Box key={source.slug} flexDirection="column">
            <Text wrap="truncate">
              {'  '}
              <Text bold>{source.slug.padEnd(slugWidth)}</Text>
              test key {source.test_key.padEnd(keyWidth)}webhook secret {source.webhook_secret}
            </Text>
            <Text wrap="truncate">
              {' '.repeat(2 + slugWidth)}webhooks → <Text {...toneProps(target.tone)}>{target.text}</Text>
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
