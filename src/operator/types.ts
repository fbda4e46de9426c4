/** A mistake in a command's arguments (exit code 2, with the command's usage). */
export class UsageError extends Error {}
/** A failure to report to the operator as it is (exit code 1). */
export class CommandError extends Error {}

export type Out = (line: string) => void;
