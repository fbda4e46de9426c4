import { lazy, Suspense } from 'react';
import type { EmojiPickerProps } from './types';

/** The picker and its emoji data are fetched the first time a picker opens, not with the page. */
const EmojiPicker = lazy(() => import('./EmojiPicker'));

export function LazyEmojiPicker(props: EmojiPickerProps) {
  return (
    <Suspense fallback={null}>
      <EmojiPicker {...props} />
    </Suspense>
  );
}
