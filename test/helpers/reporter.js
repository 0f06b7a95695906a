/**
 * The reporter of `npm test` (package.json's "tap" config): what fails, in full, as tap's `min`
 * reporter shows it, then one summary line when the run is over.
 *
 * Why not tap's default: its live view redraws on every one of the suite's twenty thousand
 * asserts, and that drawing was the busiest thing in tap's own process: on forty unit test files,
 * 6 to 7 s of CPU against 2 s for `min` (`terse` 3.6 s), on a machine whose two cores also run the
 * tests. This one draws the failures as they come (rare) and the summary once.
 *
 * ink and React are tap's own copies (those beside @tapjs/reporter): an element made with
 * another React would not render in its tree.
 */
import { createRequire } from 'node:module';
import { components } from '@tapjs/reporter';

const reporter = import.meta.resolve('@tapjs/reporter');
const require = createRequire(reporter);
/** @type {typeof import('react')} */
const React = require('react');
/** @type {typeof import('ink')} */
const { Box, Text } = await import(createRequire(reporter).resolve('ink'));
const h = React.createElement;

/** @param {{ test: any }} props */
function Summary({ test }) {
  const [line, setLine] = React.useState(/** @type {{ text: string, failed: boolean } | null} */ (null));
  React.useEffect(() => {
    // Counted as they end, drawn once: a state change per test file would redraw each time.
    const files = { pass: 0, fail: 0, skip: 0 };
    test.on('subtestEnd', (/** @type {any} */ t) => {
      const results = t.results;
      if (!results) return;
      if (!results.ok) files.fail++;
      else if (results.plan.skipAll) files.skip++;
      else files.pass++;
    });
    test.on('complete', () => {
      const { pass = 0, fail = 0, skip = 0, todo = 0 } = test.counts;
      const asserts = [`${pass} pass`, `${fail} fail`, ...(skip ? [`${skip} skip`] : []), ...(todo ? [`${todo} todo`] : [])];
      const suites = [`${files.pass} pass`, `${files.fail} fail`, ...(files.skip ? [`${files.skip} skip`] : [])];
      setLine({ text: `Asserts: ${asserts.join(', ')}. Test files: ${suites.join(', ')}.`, failed: fail + files.fail > 0 });
    });
  }, [test]);
  return line && h(Box, { marginY: 1 }, h(Text, { bold: true, color: line.failed ? 'red' : 'green' }, line.text));
}

/** @param {{ test: any, config: any }} props */
export default function Reporter({ test, config }) {
  return h(Box, { flexDirection: 'column' }, h(components.ResultDetailList, { test, config, filter: failed }), h(Summary, { test }));
}

/** @param {{ parser: { ok: boolean }, counts: { fail?: number, todo?: number } }} result */
const failed = ({ parser, counts }) => !parser.ok || !!counts.todo || !!counts.fail;
