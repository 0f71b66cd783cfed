import {expect, test} from 'vitest';
import {scrollToShow} from '../../../source/ui/screens/scroll.js';

test('scrolls as little as possible to keep the row on screen, never past the last page', () => {
	expect(scrollToShow(0, 3, 20, 5)).toBe(0);
	expect(scrollToShow(0, 7, 20, 5)).toBe(3);
	expect(scrollToShow(10, 4, 20, 5)).toBe(4);
	expect(scrollToShow(18, 19, 20, 5)).toBe(15);
	expect(scrollToShow(12, 13, 14, 5)).toBe(9);
	expect(scrollToShow(3, 0, 0, 5)).toBe(0);
	expect(scrollToShow(0, 2, 10, 0)).toBe(2);
});
