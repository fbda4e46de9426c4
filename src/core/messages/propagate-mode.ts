/** Which messages of a topic an edit moves: the one edited, it and later ones, or all. */
export const PROPAGATE_MODES = ['change_one', 'change_later', 'change_all'] as const;
export type PropagateMode = (typeof PROPAGATE_MODES)[number];
