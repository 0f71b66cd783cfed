import {describe, expect, test} from 'vitest';
import {createTheme} from '../../../source/ui/text/theme.js';

describe('theme', () => {
	test('colour off emits no colour props at all', () => {
		const theme = createTheme({color: false});
		for (const token of ['ok', 'warn', 'error', 'info', 'muted', 'accent', 'border'] as const) {
			expect(theme.text(token)).toEqual({});
			expect(theme.border(token, true)).toEqual({});
		}

		expect(theme.dim(true)).toEqual({});
	});

	test('colour on maps tokens to colours, with stable objects', () => {
		const theme = createTheme({color: true});
		expect(theme.text('ok')).toEqual({color: 'green'});
		expect(theme.text('error')).toEqual({color: 'red'});
		expect(theme.border('border', true)).toEqual({borderColor: 'gray', borderDimColor: true});
		expect(theme.dim(true)).toEqual({dimColor: true});
		expect(theme.dim(false)).toEqual({});
		expect(theme.text('ok')).toBe(theme.text('ok'));
		expect(createTheme({color: true})).toBe(theme);
	});
});
