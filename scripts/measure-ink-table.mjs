#!/usr/bin/env node
// Why the threads and fleet panes do not use @alcalzone/ink-table (see readme, "Libraries"):
// renders a CPU and a GPU threads table with it at the 78 columns an 80-column terminal leaves
// inside a pane, and prints the line count and widest line of each.
import React from 'react';
import {renderToString} from 'ink';
import {Table} from '@alcalzone/ink-table';

const cpu = Array.from({length: 4}, (_, i) => ({'#': i, '10s': '1.27', '60s': '1.26', '15m': '1.26', intensity: 1, affinity: i}));
const gpu = [
	{
		'#': 0,
		'10s': '2.41 MH/s',
		'60s': '2.40 MH/s',
		'15m': '2.40 MH/s',
		intensity: 4096,
		affinity: '—',
		device: 'NVIDIA GeForce RTX 3080 Ti 71°C 290W fan 64',
	},
];
for (const [name, data] of [
	['4 CPU threads', cpu],
	['1 GPU thread', gpu],
]) {
	const out = renderToString(React.createElement(Table, {data}), {columns: 78});
	const lines = out.split('\n');
	console.log(`${name}: ${lines.length} lines for ${data.length} rows, widest ${Math.max(...lines.map((line) => line.length))} columns`);
	console.log(out);
}
