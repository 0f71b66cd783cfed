// string-width 8.3.0 (Ink's text measure): builds the RGI emoji regex (/^\p{RGI_Emoji}$/v) only when a grapheme can
// be an emoji. As published, the regex literal is built when the module loads and first run on the first non-ASCII
// grapheme the dashboard draws (its borders): about 10 ms to build and 12 ms to run the first time, on the first
// frame of every start (docs/performance.md). A single code point is an RGI emoji only if it has Emoji_Presentation
// (true of every single-code-point RGI emoji; test/e2e/patches.test.ts checks every code point of planes 0, 1
// and 14 against the original), so a single code point without it skips the regex; any other grapheme is tested exactly as before.
import {versionedPatch} from './versioned-patch.mjs';

export default versionedPatch({
	name: 'string-width',
	version: '8.3.0',
	file: 'index.js',
	patchFile: 'scripts/patches/string-width.mjs',
	edit(source, replace) {
		let patched = replace(
			source,
			'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
			`const emojiPresentationRegex = /\\p{Emoji_Presentation}/u;
let rgiEmojiRegex; // rigtop patch (scripts/patches/string-width.mjs): built on first need
function isRgiEmoji(segment) {
	if (segment.length === (segment.codePointAt(0) > 0xFFFF ? 2 : 1) && !emojiPresentationRegex.test(segment)) {
		return false;
	}

	rgiEmojiRegex ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v');
	return rgiEmojiRegex.test(segment);
}`,
		);
		patched = replace(patched, 'if (rgiEmojiRegex.test(segment) ||', 'if (isRgiEmoji(segment) ||');
		return patched;
	},
});
