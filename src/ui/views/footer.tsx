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
const KEYS: Record<Screen, [key: string, does: string, short?: string][]> = {
  list: [
    ['↑↓', 'select'],
    ['Enter', 'open'],
    ['r', 'resend'],
    ['c', 'clock +1 day', '+1 day'],
    ['t', 'trigger'],
    ['d', 'dashboard URL', 'dashboard'],
    ['q', 'quit'],
  ],
  detail: [
    ['Esc', 'back'],
    ['↑↓', 'previous/next', 'prev/next'],
    ['PgUp/PgDn', 'scroll'],
    ['r', 'resend'],
    ['c', 'clock +1 day', '+1 day'],
    ['t', 'trigger'],
    ['d', 'dashboard URL', 'dashboard'],
    ['q', 'quit'],
  ],
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
