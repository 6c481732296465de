export declare const START_STAMP: string
export declare function startStampHolds(root: string): boolean
