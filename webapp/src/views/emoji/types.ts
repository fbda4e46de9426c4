import type { EmojiChoice } from '../reactions/toggle';

export interface EmojiPickerProps {
  /** The button that opened the picker: the picker opens next to it. */
  anchor: HTMLElement | null;
  onPick: (emoji: EmojiChoice) => void;
  onClose: () => void;
}
