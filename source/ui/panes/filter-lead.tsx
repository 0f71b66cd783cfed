import {Text} from 'ink';
import type {ListFilter} from '../screens/list.js';
import {useTheme} from '../theme.js';

/** The lead's text, as FilterLead draws it (the footer fits its hints in what is left). */
export function filterLeadText(ui: ListFilter, shown: number, count: number): string {
	const matched = `${shown} of ${count}`;
	return ui.prompt ? `/${ui.prompt.text}▏ ${matched}` : `/${ui.filter} ${matched}`;
}

/** The footer's lead while a filter is typed or in force: "/gar▏ 2 of 6" (the fleet's rigs, a proxy's workers). */
export function FilterLead({ui, shown, count}: {readonly ui: ListFilter; readonly shown: number; readonly count: number}) {
	const theme = useTheme();
	const matched = `${shown} of ${count}`;
	const text = ui.prompt ? `/${ui.prompt.text.slice(0, ui.prompt.caret)}▏${ui.prompt.text.slice(ui.prompt.caret)}` : `/${ui.filter}`;
	return (
		<Text>
			<Text {...theme.text('accent')}>{text}</Text>
			<Text {...theme.text('muted')}>{` ${matched}`}</Text>
		</Text>
	);
}
