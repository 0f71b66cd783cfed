/**
 * Rig and worker names in the order a person expects ("rig2" before "rig10", case and accents aside).
 *
 * The collator is made at the first comparison, not when a screen's module loads: the first Intl.Collator of a
 * process loads ICU's collation data, 7 ms on Node 22 and 12 ms on Node 26 (docs/performance.md), which a start that
 * never sorts by name (one miner's dashboard, --once) should not pay.
 */
let collator: Intl.Collator | undefined;

export function compareNames(a: string, b: string): number {
	collator ??= new Intl.Collator(undefined, {numeric: true, sensitivity: 'base'});
	return collator.compare(a, b);
}
