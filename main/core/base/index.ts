// What every layer shares: diagnostics, names, real paths and globs, tokens, small helpers.
// What other folders may import from core/base: nothing outside reaches past this file.
export { formatDiagnostic, hasErrors, type Diagnostic } from './diagnostics.js';
export { globMatcher, GlobTooSlowError, matchesAny, RegexTimeoutError, testWithin } from './glob.js';
export { lazyRequire } from './lazy-require.js';
export { nameKey } from './names.js';
export { isInside, realPathOf, realRoot, relPosix } from './paths.js';
export { readCapped, readRegularFile } from './read-file.js';
export { fsWords } from './fs-words.js';
export { sha256Hex } from './sha256.js';
export { countTokens } from './tokens.js';
export { writeFileAtomic } from './atomic-write.js';
export { BoundedMap } from './bounded-map.js';
export { onOwnWrite, saidOwnWrite, type OwnContents } from './own-writes.js';
export { processAlive } from './process-alive.js';
export { makeOwnTemp, pruneStaleTemp } from './stale-temp.js';
export { setAside } from './set-aside.js';
// Messages for people as a code plus parameters (preload/words.ts): the window words them, the CLI prints english().
export { english, said, say, WORDS, Said, type WordCode } from '../../../preload/words.js';
export { Refusal } from './refusal.js';
