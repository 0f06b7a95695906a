import { Box, Text } from 'ink';
import type { Notice, Screen } from '../state.js';
import { Line } from './line.js';

/** The latest notices: config reloads and rejected edits, results of keys, errors. */
export function Notices(props: { notices: readonly Notice[]; width: number }) {
  return (
    <Box flexDirection="column">
      {props.notices.map((n) => (
        <Line key={n.id} width={props.width} spans={[{ text: `${n.tone === 'error' ? '✗' : '•'} ${n.text}`, style: n.tone === 'error' ? 'error' : 'notice' }]} />
      ))}
    </Box>
  );
}

const KEYS: Record<Screen, string> = {
  list: '↑↓ select  Enter open  r resend  c clock +1 day  t trigger  q quit',
  detail: 'Esc back  ↑↓ previous/next  PgUp/PgDn scroll  r resend  c clock +1 day  t trigger  q quit',
  trigger: '↑↓ choose  Enter trigger  Esc close  q quit',
};

export function KeyHints(props: { screen: Screen }) {
  return (
    <Text dimColor wrap="truncate">
      {KEYS[props.screen]}
    </Text>
  );
}
