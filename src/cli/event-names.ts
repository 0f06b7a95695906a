/**
 * The catalogue's event names, for the command line's help and its checks of an event argument.
 * In the built script, scripts/build-cli.js puts the list itself in place of this file: every
 * start of `payemu` defines the commands' help, and evaluating the whole catalogue for it (every
 * resource, route and page: some 60 ms) would slow `--help` and the client commands down.
 */
export { EVENT_NAMES } from '../modules.js';
