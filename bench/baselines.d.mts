// Types of bench/baselines.mjs for the unit tests (test/bench/baselines.test.ts).
export declare const MB: number;
export declare function commandPath(name: string, envPath?: string): string | null;
export declare function writeBtopConfig(configHome: string, updateMs: number): string;
export declare function monitorEnv(configHome: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function btopShownUpdateMs(output: string): number | null;
export type RssCurve = {start: number; end: number; max: number; creepPerMinute: number; creepFrom: number; readings: number};
export declare function rssCurve(samples: ReadonlyArray<{at: number; rss: number}>, warmupMs?: number): RssCurve;
