/**
 * Preloaded (`--require`) into each test process of both tiers (test/helpers/built-tap.js),
 * before tap's own `--import`: keeps @tapjs/processinfo from registering its module hook.
 *
 * That hook records every module a test process loads, for `tap --changed`, which the suite does
 * not use. On Node 20 any registered hook puts every import of the process through a thread of
 * its own, a round trip for each resolve and each load: about half a second of CPU in every test
 * process, for modules that the tiers run as plain JavaScript (.test-build/, from
 * scripts/build-tests.js) and that need no hook of ours either. Coverage does not need it:
 * processinfo's main-thread part still starts V8's coverage and writes it at exit, and the
 * coverage map (test/helpers/coverage-map.js) names the built modules of src/, whose source maps
 * lead back to the TypeScript.
 *
 * Should tap register its hook some other way, this does nothing and the suite is only slower.
 * Other modules' hooks are registered as before.
 */
const module_ = require('node:module');

const register = module_.register;
if (typeof register === 'function') {
  module_.register = function registerUnlessTapRecorder(specifier, ...rest) {
    if (String(specifier).includes('/@tapjs/processinfo/')) return undefined;
    return register.call(this, specifier, ...rest);
  };
}
