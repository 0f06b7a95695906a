/**
 * tap's coverage map (package.json, "coverage-map"): the coverage of every test file is the
 * coverage of payemu's source, src/, and nothing else.
 *
 * Why a map: tap records coverage in every process a test starts, since its loader travels in
 * NODE_OPTIONS to the children. The CLI tests run the built binary (bin/payemu.js, the bundle in
 * dist/bin/ and the prebuilt validators in dist/lib/), which would then be measured as files of
 * their own beside src/, and pull the totals under the floors although src/ is well covered.
 * With a list of files, tap records only those, in the test process and in its children alike.
 *
 * Left out: the unit tests beside the code (`*.test.ts`) and their support files
 * (`*.test-support.ts`), which are test code, not the product.
 *
 * `npm test` runs the JavaScript of .test-build/ (scripts/build-tests.js): the same modules,
 * recorded under their built names, then read back through their source maps as the files of
 * src/ they were built from, which the report counts.
 *
 * @param {string} _testFile the test file, relative to the project root
 * @returns {string[]} globs, relative to the project root, of the files whose coverage counts
 */
export default function coverageMap(_testFile) {
  return ['src/**/!(*.test|*.test-support).{ts,tsx}', '.test-build/src/**/!(*.test|*.test-support).js'];
}
