/** See cache-file.js (JavaScript: test/helpers/ts-hooks.js, the TypeScript loader itself, imports it). */
export function writeCacheFile(file: string | URL, text: string): void;
