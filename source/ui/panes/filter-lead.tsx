import {Text} from 'ink';
import {useTheme} from '../text/theme.js';
import type {TypedText} from '../widgets/line-editor.js';

/** A list's filter as the lead shows it (a list screen's state: screens/list.ts's ListFilter): what is typed, or in force. */
type FilterShown = {readonly filter: string; readonly prompt: TypedText | null};

/** The lead's text, as FilterLead draws it (the footer fits its hints in what is left). */
export function filterLeadText(ui: FilterShown, shown: number, count: number): string {
	const matched = `${shown} of ${count}`;
	return ui.prompt ? `/${ui.prompt.text}▏ ${matched}` : `/${ui.filter} ${matched}`;
}

/** The footer's lead while a filter is typed or in force: "/gar▏ 2 of 6" (the fleet's rigs, a proxy's workers). */
export function FilterLead({ui, shown, count}: {readonly ui: FilterShown; readonly shown: number; readonly count: number}) {
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
