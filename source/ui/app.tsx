import {Dashboard, type DashboardProps} from './dashboard.js';
import {createTheme, ThemeContext} from './theme.js';

export type AppProps = DashboardProps & {
	/** Draw in colour (default true). Off for --no-color or NO_COLOR: see `colorEnabled`. */
	readonly color?: boolean;
};

/** The root: theme around the one-miner dashboard (config and fleet screens come later). */
export function App({color = true, ...dashboard}: AppProps) {
	return (
		<ThemeContext.Provider value={createTheme({color})}>
			<Dashboard {...dashboard} />
		</ThemeContext.Provider>
	);
}
