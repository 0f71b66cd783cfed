/**
 * The first row to show so that row `index` of `count` is on screen in `pageSize` rows, moving the
 * view from `top` as little as possible and never past the last page. The fleet's selection and the
 * config tree's cursor both scroll this way.
 */
export function scrollToShow(top: number, index: number, count: number, pageSize: number): number {
	const page = Math.max(1, pageSize);
	let next = Math.min(top, Math.max(0, count - page));
	if (index < next) next = index;
	if (index >= next + page) next = index - page + 1;
	return Math.max(0, next);
}
