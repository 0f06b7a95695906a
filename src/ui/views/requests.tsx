import { Box } from 'ink';
import { cell, requestTone } from '../format.js';
import type { RequestRow } from '../state.js';
import { Line } from './line.js';

/** The request log, newest first: method, path, status, latency. */
export function RequestLog(props: { requests: readonly RequestRow[]; seen: number; height: number; width: number }) {
  const { width } = props;
  const pathWidth = Math.max(20, width - 2 - 7 - 5 - 10 - 12 - 1);
  const visible = props.requests.slice(0, props.height);
  const kept = props.seen > props.requests.length ? `, latest ${props.requests.length} of ${props.seen}` : '';
  return (
    <Box flexDirection="column">
      <Line width={width} spans={[{ text: 'Requests ', style: 'bold' }, { text: `(${props.requests.length === 0 ? 'none yet' : `${props.requests.length}${kept}`})`, style: 'dim' }]} />
      {visible.map((r) => (
        <Line
          key={r.id}
          width={width}
          spans={[
            { text: '  ' },
            { text: cell(String(r.status), 5), style: requestTone(r.status) },
            { text: cell(r.method, 7) + cell(r.path, pathWidth) + cell(`${r.ms.toFixed(1)}ms`, 10) },
            { text: r.source ? `${r.source}/${r.mode}` : '', style: 'dim' },
          ]}
        />
      ))}
    </Box>
  );
}
