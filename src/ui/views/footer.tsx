import { Box } from 'ink';
import { textWidth } from '../format.js';
import type { Notice, Screen } from '../state.js';
import { Line } from './line.js';

/** The latest notices: config reloads and rejected edits, results of keys, errors. */
export function Notices(props: { notices: readonly Notice[]; width: number }) {
  return (
    <Box flexDirection="column">
      {props.notices.map((n) => (
        <Line
          key={n.id}
          width={props.width}
          spans={[{ text: `${n.tone === 'error' ? '✗' : '•'} ${n.text}`, style: n.tone === 'error' ? 'error' : 'notice' }]}
        />
      ))}
    </Box>
  );
}

/** Each screen's keys: the key, what it does, and a shorter word for a narrow terminal. */
type Key = [key: string, does: string, short?: string];

/** The keys of an event, in the list as in its detail: resend it, move the clock, trigger, the dashboard, quit. */
const EVENT_KEYS: Key[] = [
  ['r', 'resend'],
  ['c', 'clock +1 day', '+1 day'],
  ['t', 'trigger'],
  ['d', 'dashboard URL', 'dashboard'],
  ['q', 'quit'],
];

const KEYS: Record<Screen, Key[]> = {
  list: [['↑↓', 'select'], ['Enter', 'open'], ...EVENT_KEYS],
  detail: [['Esc', 'back'], ['↑↓', 'previous/next', 'prev/next'], ['PgUp/PgDn', 'scroll'], ...EVENT_KEYS],
  trigger: [
    ['↑↓', 'choose'],
    ['Enter', 'trigger'],
    ['Esc', 'close'],
    ['q', 'quit'],
  ],
};

/** The key line: in full when it fits, else with shorter words, else cut at its end. */
export function keyHints(screen: Screen, width: number): string {
  const full = KEYS[screen].map(([key, does]) => `${key} ${does}`).join('  ');
  if (textWidth(full) <= width) return full;
  return KEYS[screen].map(([key, does, short]) => `${key} ${short ?? does}`).join('  ');
}

export function KeyHints(props: { screen: Screen; width: number }) {
  return <Line width={props.width} spans={[{ text: keyHints(props.screen, props.width), style: 'dim' }]} />;
}
